# Precompiled headers for the third-party headers every unit parses: Eigen,
# mpreal and Boost.Multiprecision (and GoogleTest for the tests). Parsing
# them took 2 to 4 s of each unit's compile (test_validate.cpp: 4.8 s, 1.9 s
# with the precompiled header; test_contact_models.cpp 21.0 s, 16.4 s).
#
# Two precompiled headers, each built once and reused by every target of its
# kind (REUSE_FROM): one for the libraries and commands, one with GoogleTest
# for the targets that link it (their GTEST_ definitions must match the
# header's). Left out: targets compiled with options that change what the
# headers mean (the Simbody adapter's -UNDEBUG) and module libraries (the
# Python module). A target that inherits such an option (the Simbody
# adapter's users) is given the header and GCC parses the headers instead
# (-Winvalid-pch says so: "not used because NDEBUG not defined").
option(FEMC_PCH "Precompile the heavy third-party headers (Eigen, mpreal, Boost.Multiprecision, GoogleTest)" ON)

set(femc_pch_core_headers
    <Eigen/Core> <Eigen/Dense> <Eigen/SVD> <Eigen/Cholesky> <Eigen/QR> <Eigen/LU>
    <mpreal.h> <unsupported/Eigen/MPRealSupport>
    <boost/multiprecision/gmp.hpp> <boost/multiprecision/float128.hpp> <boost/multiprecision/eigen.hpp>
    <algorithm> <functional> <map> <memory> <sstream> <string> <vector>)

function(femc_targets_under dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    femc_targets_under(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(femc_uses_gtest target out)
  get_target_property(libs ${target} LINK_LIBRARIES)
  set(found FALSE)
  foreach(lib IN LISTS libs)
    if(lib MATCHES "^(GTest::|gtest|rapidcheck_gtest|femc_test_support|femc_property_support)")
      set(found TRUE)
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# The precompiled header of a kind (core or test, position-independent or
# not: GCC refuses a header made with other -fpie/-fPIC settings), made at
# the first target that needs it.
function(femc_pch_target kind pic out)
  set(name femc_pch_${kind})
  if(pic)
    set(name ${name}_pic)
  endif()
  if(NOT TARGET ${name})
    set(empty ${PROJECT_BINARY_DIR}/femc_pch.cpp)
    if(NOT EXISTS ${empty})
      file(WRITE ${empty} "// The unit that carries femc's precompiled headers (cmake/FemcPrecompiledHeaders.cmake).\n")
    endif()
    add_library(${name} OBJECT EXCLUDE_FROM_ALL ${empty})
    target_link_libraries(${name} PRIVATE Eigen3::Eigen Boost::headers PkgConfig::MPFR PkgConfig::GMP)
    set(headers ${femc_pch_core_headers})
    if(kind STREQUAL "test")
      target_link_libraries(${name} PRIVATE GTest::gtest)
      list(APPEND headers <gtest/gtest.h>)
    endif()
    set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ${pic})
    target_precompile_headers(${name} PRIVATE ${headers})
  endif()
  set(${out} ${name} PARENT_SCOPE)
endfunction()

# Called once, after every directory is added.
function(femc_precompile_headers)
  if(NOT FEMC_PCH)
    return()
  endif()
  femc_targets_under(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$" OR target MATCHES "^femc_pch_")
      continue()
    endif()
    get_target_property(options ${target} COMPILE_OPTIONS)
    if(options MATCHES "NDEBUG")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    if(NOT sources MATCHES "\\.(cpp|cc|cxx)")
      continue()
    endif()
    get_target_property(pic ${target} POSITION_INDEPENDENT_CODE)
    if(NOT pic)
      set(pic OFF)
    endif()
    femc_uses_gtest(${target} gtest)
    set(kind core)
    if(gtest AND TARGET GTest::gtest)
      set(kind test)
    endif()
    femc_pch_target(${kind} ${pic} pch)
    target_precompile_headers(${target} REUSE_FROM ${pch})
  endforeach()
endfunction()
