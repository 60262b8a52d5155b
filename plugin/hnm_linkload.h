/* hnm_linkload.h -- per-link load (hnm-run --link-load), inside libhnm.so;
 * a C++ header of the glue (see hnm_linkload.cpp). */
#ifndef HNM_LINKLOAD_H
#define HNM_LINKLOAD_H

#include <vector>

namespace simgrid::s4u {
class Link;
}

/* Start tracking if --cfg=hnm/link-load (else $HNM_LINK_LOAD) names the
 * output file: call once, after SimGrid has read the command line and
 * before the simulation starts; nothing otherwise. */
void hnm_linkload_init();
/* One message of size bytes is routed through links (no-op unless tracking). */
void hnm_linkload_route(double size, const std::vector<simgrid::s4u::Link*>& links);

#endif
