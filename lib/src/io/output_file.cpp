#include "femc/io/output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "femc/errors.hpp"

namespace femc::io {

void check_output_path(const std::string& path) {
  namespace fs = std::filesystem;
  fs::path p(path);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError("output", "directory '" + dir.string() + "' does not exist");
  if (fs::is_directory(p, ec)) throw InputError("output", "'" + path + "' is a directory");
  if (access(dir.c_str(), W_OK) != 0) throw InputError("output", "directory '" + dir.string() + "' is not writable");
}

void write_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !(out << text) || !out.flush()) {
      std::remove(tmp.c_str());
      throw InputError("output", "cannot write '" + tmp + "'");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    throw InputError("output", "cannot rename to '" + path + "': " + why);
  }
}

}  // namespace femc::io
