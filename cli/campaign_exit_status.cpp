#include "commands.hpp"
#include "framework/distribute.hpp"

namespace femc::cli {

// In an MPI job an error on any rank ends every rank, so that none is left
// waiting for it; a verdict (0, or kExitRegression after every rank has
// finished) ends normally.
int with_exit_status_on_every_rank(const std::function<int()>& body) {
  const int status = with_exit_status(body);
  if (status != 0 && status != kExitRegression && studies::distributed::active())
    studies::distributed::abort_job(status);
  return status;
}

}  // namespace femc::cli
