#pragma once
// A model file of either kind ("planar" or "spatial"; models/README.md), as
// the commands that take one read it.
#include <string_view>
#include <variant>

#include "femc/io/json_model.hpp"
#include "femc/io/json_spatial_model.hpp"

namespace femc {

using ModelText = std::variant<PlanarModelText, SpatialModelText>;

// Reads the document's "kind" and parses it as that kind. Throws InputError
// ("kind: 'planr' is not a kind of model femc reads (planar, spatial)").
ModelText read_model_text(std::string_view json);

}  // namespace femc
