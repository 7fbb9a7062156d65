#pragma once
// Reading an input document whole (a system, a model): a clear error naming
// the option for a path that is missing, a directory, unreadable, or larger
// than kMaxDocumentBytes.
#include <string>

namespace femc::io {

// Throws InputError(field, "cannot read 'PATH': …").
std::string read_input_file(const std::string& path, const std::string& field = "input");

}  // namespace femc::io
