#include "femc/io/input_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "femc/errors.hpp"
#include "femc/io/json_system.hpp"  // kMaxDocumentBytes

namespace femc::io {

std::string read_input_file(const std::string& path, const std::string& field) {
  std::error_code ec;
  auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(field, "cannot read '" + path + "': " + ec.message());
  if (std::filesystem::is_directory(path)) throw InputError(field, "'" + path + "' is a directory");
  if (size > kMaxDocumentBytes)
    throw InputError(field, "'" + path + "' is larger than " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(field, "cannot open '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace femc::io
