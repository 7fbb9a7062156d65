#include <array>
#include <cstring>
#include <fstream>
#include <sstream>

#include "femc/engines/mujoco.hpp"
#include "femc/errors.hpp"

namespace femc::engines::mujoco {
namespace {

// MuJoCo writes its reason into a caller's buffer; 1000 characters is the
// size its own samples use.
using ErrorBuffer = std::array<char, 1000>;

std::unique_ptr<Model> compiled(mjModel* m, const ErrorBuffer& error, const std::string& name) {
  if (m == nullptr) {
    std::string reason(error.data());
    if (reason.empty()) reason = "MuJoCo could not compile it";
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
    for (char& c : reason)
      if (c == '\n') c = ' ';  // one line
    throw InputError(name, reason);
  }
  m->opt.jacobian = mjJAC_DENSE;  // efc_J as a dense ne × nv array
  return std::make_unique<Model>(m, name);
}

}  // namespace

Model::Model(mjModel* m, std::string name) : m_(m), d_(mj_makeData(m)), name_(std::move(name)) {
  if (d_ == nullptr) {
    mj_deleteModel(m_);
    throw InputError(name_, "MuJoCo could not allocate the model's data");
  }
  mj_forward(m_, d_);
}

Model::~Model() {
  mj_deleteData(d_);
  mj_deleteModel(m_);
}

void Model::set_state(const Vector<double>& qpos, const Vector<double>& qvel) {
  if (qpos.size() != m_->nq) throw InputError("qpos", "has " + std::to_string(qpos.size()) + " entries, the model " + std::to_string(m_->nq));
  if (qvel.size() != m_->nv) throw InputError("qvel", "has " + std::to_string(qvel.size()) + " entries, the model " + std::to_string(m_->nv));
  for (int i = 0; i < m_->nq; ++i) d_->qpos[i] = qpos(i);
  for (int i = 0; i < m_->nv; ++i) d_->qvel[i] = qvel(i);
  mj_forward(m_, d_);
}

Vector<double> Model::qpos() const { return Eigen::Map<const Vector<double>>(d_->qpos, m_->nq); }
Vector<double> Model::qvel() const { return Eigen::Map<const Vector<double>>(d_->qvel, m_->nv); }

std::unique_ptr<Model> load_file(const std::string& path) {
  if (!std::ifstream(path)) throw InputError(path, "cannot be read");
  ErrorBuffer error{};
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error.data(), int(error.size()));
  return compiled(m, error, path);
}

// From memory through MuJoCo's virtual file system (2 MB of file names: on
// the heap).
std::unique_ptr<Model> load_text(const std::string& mjcf, const std::string& name) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const std::string file = "model.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), file.c_str(), int(mjcf.size())) != 0)
    throw InputError(name, "MuJoCo's virtual file system refused the model");
  const int index = mj_findFileVFS(vfs.get(), file.c_str());
  std::memcpy(vfs->filedata[index], mjcf.data(), mjcf.size());
  ErrorBuffer error{};
  mjModel* m = mj_loadXML(file.c_str(), vfs.get(), error.data(), int(error.size()));
  mj_deleteVFS(vfs.get());
  return compiled(m, error, name);
}

}  // namespace femc::engines::mujoco
