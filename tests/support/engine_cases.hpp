#pragma once
// The mechanisms and states every engine adapter's tests run on
// (tests/engines), one list for all engines: the crank-rocker at four crank
// angles, the closed chain and Bricard's mechanism (engines/common), each
// built moving or at rest, with its number of constraint rows and their rank
// at the data's precision.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "femc/engines/bricard.hpp"
#include "femc/engines/planar_loop.hpp"
#include "femc/system.hpp"

namespace femc::test {

inline constexpr double kCrankSpeed = 2.0;  // rad/s, the four-bars' crank when moving

template <class Mechanism>
struct EngineCase {
  std::string name;
  std::function<std::unique_ptr<Mechanism>(bool moving)> make;
  Index rows, rank;  // the planar loops: 3 rows (one identically zero), rank 2; Bricard's weld: 6, rank 5
};

// An engine's builders: four_bar(theta, omega), planar_loop(loop, angles,
// speeds), bricard(speed0), each returning std::unique_ptr<Mechanism>.
template <class Mechanism, class FourBar, class PlanarLoop, class Bricard>
std::vector<EngineCase<Mechanism>> engine_cases(FourBar four_bar, PlanarLoop planar_loop, Bricard bricard) {
  namespace loop = engines::planar_loop;
  std::vector<EngineCase<Mechanism>> out;
  for (double theta : {0.3, 1.0, 2.0, 4.0})
    out.push_back({"four-bar at " + std::to_string(theta),
                   [=](bool moving) { return four_bar(theta, moving ? kCrankSpeed : 0.0); }, 3, 2});
  out.push_back({"closed chain",
                 [=](bool moving) {
                   return planar_loop(loop::kClosedChain, loop::kClosedChainStart,
                                      moving ? std::vector<double>{1.0, -1.0, 0.5, 0.3} : std::vector<double>(4, 0.0));
                 },
                 3, 2});
  out.push_back({"Bricard", [=](bool moving) { return bricard(moving ? engines::bricard::kSpeed0 : 0.0); }, 6, 5});
  return out;
}

}  // namespace femc::test
