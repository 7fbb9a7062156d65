#pragma once
// Reading JSON documents whose numbers femc keeps as text (src/io only: the
// system reader, json_system.cpp, and the model reader, json_model.cpp).
// Every number, written as a JSON number or as a numeric string, reaches
// the caller as its own text, so that it is read exactly at the working
// precision later; nothing passes through double.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace femc::json_text {

using json = nlohmann::json;

// Parses a document of at most kMaxDocumentBytes, nested at most
// kMaxJsonDepth deep, with at most kMaxJsonValues values and no key twice.
// Numbers are stored as marked strings (is_number, entry_text). Throws
// InputError ("document: malformed JSON at byte 12: ...").
json parse(std::string_view text);

// Whether a value of the parsed document is a JSON number.
bool is_number(const json& v);
// A number's text: a JSON number's, or a string's checked for numeric
// syntax. Anything else is an InputError naming `field`.
std::string entry_text(const json& v, const std::string& field);
// "number", "string", "array", ... for messages.
const char* kind_name(const json& v);

}  // namespace femc::json_text
