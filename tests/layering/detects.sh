#!/usr/bin/env bash
# scripts/check-layering on a small tree made to break each rule once: it
# must exit 1 and name every violation (file, line, what), and pass once the
# violations are removed. Environment: CHECK_LAYERING (the script).
source "$(dirname "$0")/../sim/lib.sh"

T=$WORK
mkdir -p "$T"/{core,model,plugin,tools,platforms,calibration,apps,tests/unit,include/hnm}
printf '#include "hnm_units.h"\n' >"$T/core/hnm_units.c"
printf '/* units */\n' >"$T/core/hnm_units.h"
printf '#include "hnm_model.h"\n#include <libxml/parser.h>\n' >"$T/model/hnm_model.c"
# A public header (include/hnm/) belongs to the part that holds its source.
printf '/* model */\n' >"$T/include/hnm/hnm_model.h"
printf '#include "hnm_model.h"\n#include "hnm_topo.h"\n#include <simgrid/s4u.hpp>\n' >"$T/plugin/glue.cpp"
printf '#include "hnm_topo.h"\n#include "hnm_units.h"\n' >"$T/platforms/hnm_topo.c"
printf '/* topo */\n' >"$T/platforms/hnm_topo.h"
printf '#include <glpk.h>\n' >"$T/platforms/hnm_paths_lp.c"
printf '#include "hnm_topo.h"\n' >"$T/platforms/hnm_platform.c"
# apps/ may include SimGrid's C actor/engine API only in code smpicc alone
# compiles (directly under #ifdef SMPI_SHARED_MALLOC).
printf '#include <mpi.h>\n#include "skel.h"\n#ifdef SMPI_SHARED_MALLOC\n#include <simgrid/actor.h>\n#include <simgrid/engine.h>\n#endif\n' >"$T/apps/skel.c"
printf '/* skel */\n' >"$T/apps/skel.h"
printf '#include "hnm_model.h"\n#include "hnm_topo.h"\n' >"$T/tests/unit/test_all.c"
cat >"$T/core/CMakeLists.txt" <<'CM'
add_library(hnmbase STATIC hnm_units.c)
target_link_libraries(hnmbase PUBLIC m)
CM
cat >"$T/model/CMakeLists.txt" <<'CM'
add_library(hnmmodel STATIC hnm_model.c)
target_link_libraries(hnmmodel PUBLIC hnmbase LibXml2::LibXml2 m)
CM
cat >"$T/plugin/CMakeLists.txt" <<'CM'
add_library(hnm SHARED glue.cpp)
target_link_libraries(hnm PRIVATE hnmmodel hnmtopo PkgConfig::SIMGRID)
CM
cat >"$T/platforms/CMakeLists.txt" <<'CM'
add_library(hnmtopo STATIC hnm_topo.c)
target_link_libraries(hnmtopo PUBLIC hnmbase m)
add_library(hnmpaths STATIC hnm_paths_lp.c)
target_link_libraries(hnmpaths PUBLIC hnmtopo ${GLPK_LIBRARY})
add_executable(hnm-platform hnm_platform.c)
target_link_libraries(hnm-platform PRIVATE hnmtopo
  m)
CM
cat >"$T/tests/unit/CMakeLists.txt" <<'CM'
add_executable(test_all test_all.c)
target_link_libraries(test_all PRIVATE hnmmodel hnmtopo)
CM

out=$(bash "$CHECK_LAYERING" "$T")
st=$?
check_eq "a clean tree passes ($out): exit status" "$st" 0

# One violation of each kind.
printf '#include "hnm_model.h"\n#include <libxml/tree.h>\n' >>"$T/core/hnm_units.c"
printf '#include "hnm_model.h"\n' >>"$T/platforms/hnm_topo.c"
printf '#include <simgrid/s4u.hpp>\n' >>"$T/model/hnm_model.c"
printf '#include <glpk.h>\n#include <libxml/parser.h>\n' >>"$T/platforms/hnm_topo.c"
printf '#include "nowhere.h"\n' >>"$T/apps/skel.c"
printf '#include <cstdio>\n' >"$T/plugin/nosimgrid.cpp"
printf '#include "hnm_model.h"\n' >"$T/plugin/helper.c"
printf 'target_link_libraries(hnmmodel PUBLIC PkgConfig::SIMGRID hnmtopo)\n' >>"$T/model/CMakeLists.txt"
printf '#include <simgrid/actor.h>\n#ifndef SMPI_SHARED_MALLOC\n#include <simgrid/engine.h>\n#endif\n' >>"$T/apps/skel.c"
printf 'target_link_libraries(hnmbase PUBLIC LibXml2::LibXml2)\n' >>"$T/core/CMakeLists.txt"
printf 'target_link_libraries(hnm-platform PRIVATE LibXml2::LibXml2)\n' >>"$T/platforms/CMakeLists.txt"
printf 'target_link_libraries(hnmtopo PUBLIC hnmmodel\n  LibXml2::LibXml2)\n' >>"$T/platforms/CMakeLists.txt"
printf '#include "hnm_topo.h"\n' >>"$T/include/hnm/hnm_model.h"
printf '/* units, twice */\n' >"$T/include/hnm/hnm_units.h"
out=$(bash "$CHECK_LAYERING" "$T")
status=$?
check "violations: exit 1 (got $status)" [ $status -eq 1 ]
expect() { check "reports: $1" grep -qF -- "$1" <<<"$out"; }
expect "core/hnm_units.c:2: core/ may not include model/'s \"hnm_model.h\""
expect "core/hnm_units.c:3: core/ may not include <libxml/tree.h>"
expect "platforms/hnm_topo.c:3: platforms/ may not include model/'s \"hnm_model.h\""
expect "model/hnm_model.c:3: model/ may not include <simgrid/s4u.hpp>"
expect "plugin/nosimgrid.cpp:1: plugin/ holds the code that uses SimGrid, and this file includes no SimGrid header"
expect "plugin/helper.c:1: a C source in plugin/"
expect "model/CMakeLists.txt:3: hnmmodel (model/) may not link simgrid"
expect "model/CMakeLists.txt:3: hnmmodel links platforms/'s hnmtopo"
expect "platforms/hnm_topo.c:4: <glpk.h> outside the GLPK module"
expect "platforms/hnm_topo.c:5: platforms/ may not include <libxml/parser.h>"
expect "apps/skel.c:7: includes \"nowhere.h\", which no part holds"
expect "apps/skel.c:8: apps/ may not include <simgrid/actor.h>"
expect "apps/skel.c:10: apps/ may not include <simgrid/engine.h>"
expect "core/CMakeLists.txt:3: hnmbase (core/ library) may not link libxml2"
expect "platforms/CMakeLists.txt:9: hnmtopo links model/'s hnmmodel"
expect "platforms/CMakeLists.txt:9: hnmtopo (platforms/ library) may not link libxml2"
expect "platforms/CMakeLists.txt:8: hnm-platform (platforms/ executable) may not link libxml2"
expect "include/hnm/hnm_model.h:2: model/ may not include platforms/'s \"hnm_topo.h\""
expect "include/hnm/hnm_units.h:1: hnm_units.h is both public (include/hnm/) and beside the sources of core/"
check "exactly 19 violations" grep -q '^layering: 19 violation(s)' <<<"$out"
finish
