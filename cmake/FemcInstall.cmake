# `cmake --install` puts the library, femc::verify, headers, CLI and a package
# config in the prefix, so that a downstream project can `find_package(femc)`.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS femc femc_reference femc_protocol femc_verify femc_cli EXPORT femcTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY lib/include/femc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${FEMC_GENERATED_INCLUDE}/femc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})  # methods/units.hpp
# femc::verify: the claim properties, for a downstream project to run on its own solver.
install(DIRECTORY verify/include/femc/verify DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/femc)
# The plots of `femc verify`'s studies (the executable looks beside itself).
install(FILES studies/plots/plot_studies.py DESTINATION ${CMAKE_INSTALL_DATADIR}/femc)
install(EXPORT femcTargets NAMESPACE femc:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/femc)
configure_package_config_file(cmake/femcConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/femcConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/femc)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/femcConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/femcConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/femcConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/femc)
