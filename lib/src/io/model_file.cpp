#include "femc/io/model_file.hpp"

#include "femc/errors.hpp"
#include "json_text.hpp"

namespace femc {

ModelText read_model_text(std::string_view document) {
  const json_text::json root = json_text::parse(document);
  if (!root.is_object() || json_text::is_number(root))
    throw InputError("model", std::string("expected an object, got ") + json_text::kind_name(root));
  if (!root.contains("kind")) throw InputError("kind", "missing (planar or spatial)");
  const std::string kind = json_text::text_of(root["kind"], "kind");
  if (kind == "planar") return read_planar_model_text(document);
  if (kind == "spatial") return read_spatial_model_text(document);
  throw InputError("kind", "'" + kind.substr(0, 40) + "' is not a kind of model femc reads (planar, spatial)");
}

}  // namespace femc
