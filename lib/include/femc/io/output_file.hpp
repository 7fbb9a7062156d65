#pragma once
// Writing results: fail before any work when the output path is unusable,
// then write atomically (temporary file beside the target, then rename), so
// a reader never sees a half-written file and a failed run leaves the old
// one untouched. Used by femc's commands, the studies and the verify reports.
#include <string>

namespace femc::io {

// Throws InputError("output", …) when the directory is missing or not
// writable, or the path is a directory.
void check_output_path(const std::string& path);

void write_atomically(const std::string& path, const std::string& text);

}  // namespace femc::io
