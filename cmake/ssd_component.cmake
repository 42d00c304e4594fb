# ssdtlm::ssd (component/README.md): the drive with its PCIe/NVMe endpoint as one static library and one public
# header (include/ssdtlm/ssd.h), for SystemC platforms outside this project; ssdtlm::host_driver adds the host
# driver model's headers (host/nvme_driver.h) for a platform without an operating system of its own.
# One archive holds everything the component needs (the model, the generic wiring, the component), so an outside
# project links one library plus SystemC, zlib and threads: `find_package(ssdtlm)` after `cmake --install`.
if(SSDTLM_LTO_ONCE)
  set(SSDTLM_SSD_MODEL ${SSDTLM_MODEL_OBJECT})
else()
  set(SSDTLM_SSD_MODEL $<TARGET_OBJECTS:ssdtlm_model_objects>)
endif()
add_library(ssdtlm_ssd STATIC component/ssd.cpp platforms/generic/generic_platform.cpp
            platforms/generic/completion_fault.cpp ${CMAKE_BINARY_DIR}/generated/generic_config.cpp ${SSDTLM_SSD_MODEL})
add_dependencies(ssdtlm_ssd ssdtlm_model)
set_target_properties(ssdtlm_ssd PROPERTIES EXPORT_NAME ssd LINKER_LANGUAGE CXX)
target_include_directories(ssdtlm_ssd PRIVATE ${CMAKE_SOURCE_DIR}/platforms/generic
                           PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
target_link_libraries(ssdtlm_ssd PRIVATE $<BUILD_INTERFACE:ssdtlm_model_usage>
                      PUBLIC ${SSDTLM_SYSTEMC} ZLIB::ZLIB Threads::Threads)
target_compile_features(ssdtlm_ssd PUBLIC cxx_std_17)
add_library(ssdtlm::ssd ALIAS ssdtlm_ssd)

set(SSDTLM_DRIVER_HEADERS host/nvme_driver.h host/host_memory.h controller/nvme/nvme_spec.h)
add_library(ssdtlm_host_driver INTERFACE)
set_target_properties(ssdtlm_host_driver PROPERTIES EXPORT_NAME host_driver)
target_include_directories(ssdtlm_host_driver INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/model>
                           $<INSTALL_INTERFACE:include/ssdtlm/model>)
target_link_libraries(ssdtlm_host_driver INTERFACE ssdtlm_ssd)
add_library(ssdtlm::host_driver ALIAS ssdtlm_host_driver)

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(SSDTLM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ssdtlm)
install(TARGETS ssdtlm_ssd ssdtlm_host_driver EXPORT ssdtlmTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES include/ssdtlm/ssd.h DESTINATION include/ssdtlm)
foreach(h ${SSDTLM_DRIVER_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES model/${h} DESTINATION include/ssdtlm/model/${dir})
endforeach()
install(EXPORT ssdtlmTargets NAMESPACE ssdtlm:: DESTINATION ${SSDTLM_CMAKE_DIR})
if(SSDTLM_SYSTEMC STREQUAL "SystemC::systemc")
  set(SSDTLM_SYSTEMC_FROM_PKGCONFIG OFF)
else()
  set(SSDTLM_SYSTEMC_FROM_PKGCONFIG ON)
endif()
configure_package_config_file(cmake/ssdtlmConfig.cmake.in ${CMAKE_BINARY_DIR}/ssdtlmConfig.cmake
                              INSTALL_DESTINATION ${SSDTLM_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ssdtlmConfigVersion.cmake VERSION ${SSDTLM_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ssdtlmConfig.cmake ${CMAKE_BINARY_DIR}/ssdtlmConfigVersion.cmake
        DESTINATION ${SSDTLM_CMAKE_DIR})

# The example (examples/embed/): built here against the targets above and run by ctest; its pytest
# (tests/python/test_embed_example.py) checks its figures and builds it again out of tree against an installed copy.
add_subdirectory(examples/embed)
if(SSDTLM_TESTS)
  add_test(NAME "embed_example_bringup_io_integrity"
           COMMAND ssdtlm-embed-example --ios 1000)
  set_tests_properties("embed_example_bringup_io_integrity" PROPERTIES
                       PASS_REGULAR_EXPRESSION "integrity: 2000 reads checked, 0 errors\nresult: PASS" TIMEOUT 300)
endif()

# The component's own tests (tests/component/) in the test binary, which links the model and the generic wiring.
if(SSDTLM_TESTS)
  target_sources(ssdtlm_tests PRIVATE ${CMAKE_SOURCE_DIR}/component/ssd.cpp)
  target_include_directories(ssdtlm_tests PRIVATE ${CMAKE_SOURCE_DIR}/include)
  # ctest runs the example too: building the tests builds it, so a partial build leaves no test "Not Run".
  add_dependencies(ssdtlm_tests ssdtlm-embed-example)
endif()
