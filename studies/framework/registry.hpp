#pragma once
// The studies of femc, one factory per file of studies/.
#include <memory>

#include "study.hpp"

namespace femc::studies {

std::unique_ptr<Study> make_conditioning_study();
std::unique_ptr<Study> make_rank_study();
std::unique_ptr<Study> make_perturbed_constraints_study();
std::unique_ptr<Study> make_precision_study();
std::unique_ptr<Study> make_trajectories_study();
std::unique_ptr<Study> make_painleve_study();
std::unique_ptr<Study> make_two_bars_study();

}  // namespace femc::studies
