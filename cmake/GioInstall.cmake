# cmake --install: headers (include/gio and the device library as gio/device), libgio, gio-info,
# and a CMake package: find_package(gio) gives gio::gio, gio::checks for checked device code, and (CUDA)
# gio::device_library, the collectives and the network path out of line.
include(CMakePackageConfigHelpers)

# include/gio/device and include/gio/templates are links into the tree: their files are installed
# below, as real folders.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gio DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        REGEX "/gio/(device|templates)$" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/device/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio/device
        FILES_MATCHING PATTERN "*.hpp" PATTERN "library" EXCLUDE)  # library/: gio::device_library's own sources
install(FILES ${GIO_SHIM_INCLUDE}/gio/build_config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gio)
set(gio_installed_targets gio gio_checks gio-info)
if(TARGET gio_device_library)
  list(APPEND gio_installed_targets gio_device_library)
endif()
install(TARGETS ${gio_installed_targets} EXPORT gioTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT gioTargets NAMESPACE gio:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gio)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gioConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gioConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gio)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gioConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gioConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/gioConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/gio)
