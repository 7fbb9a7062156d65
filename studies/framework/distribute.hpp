#pragma once
// Cells of a study spread over the processes of an MPI job (`mpirun -n K
// femc study …`). Built with MPI (CMake option FEMC_MPI, ON when OpenMPI is
// found) and launched by mpirun with K > 1, the processes are ranks
// 0…K−1; otherwise there is one process and none of this is used.
//
// Rank 0 coordinates and computes: it does everything on disk (the cells'
// folder, each finished cell written as it arrives, the report), and hands
// the pending cells out on demand, longest first (Study::cost), to its own
// threads and to the other ranks, one cell at a time each. The other ranks
// only compute what they are sent and send back the cell's text. Nothing is
// written by them, so the cells need no shared file system, and a rank that
// dies loses only the cell it held: the cells already written are kept, and
// a rerun resumes from them (runner.hpp).
//
// Every MPI call is made by the main thread of each rank
// (MPI_THREAD_FUNNELED); the coordinator polls without spinning so that its
// own threads and the other ranks keep the cores.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace femc::studies::distributed {

// Whether this process is one rank of several of an MPI job. The first
// call initializes MPI when a launcher's environment says there are several
// ranks (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_SIZE); MPI is finalized at
// exit.
bool active();
int rank();
int size();

// Rank 0's verdict after its setup, given to every rank: false ends the
// study on every rank (rank 0 then reports its error).
bool agree(bool rank0_ok);

// Rank 0: computes the cells of `order` (indices, in the order to hand them
// out) with `threads` threads of its own and the other ranks, and calls
// store(i, text) in its main thread as each finishes. Throws the first
// cell's failure (as text: "cell …: …") after the ranks have stopped.
// Other ranks: compute(i) for each index rank 0 sends, until it says stop.
using Compute = std::function<std::string(std::size_t)>;
using Store = std::function<void(std::size_t, const std::string&)>;
void run_cells(const std::vector<std::size_t>& order, unsigned threads, const Compute& compute, const Store& store);

// Rank 0: every rank's `mine`, by rank (its own first). Other ranks: empty.
// Outside an MPI job: {mine}. Every rank must call it at the same point.
std::vector<std::string> gather(const std::string& mine);

// Ends the job with this exit status (after an error on rank 0, so that no
// rank waits for it).
[[noreturn]] void abort_job(int status);

}  // namespace femc::studies::distributed
