/* hnm_linkload.cpp -- per-link load of a simulation (hnm-run --link-load),
 * part of libhnm.so.
 *
 * For every link that carried traffic, at the end of the simulation:
 *   bytes      the bytes of every message routed through the link (SimGrid's
 *              simulated size, payload + SMPI's 16-byte envelope), counted
 *              when SimGrid prices the message (the bandwidth-factor
 *              callback, which receives each message's route: O(route)).
 *   busy_s     simulated time during which the link's usage was positive;
 *   mean_util  integral of usage / (bandwidth x simulated time);
 *   peak_util  largest usage / bandwidth.
 * Usage is SimGrid's (Link::get_load(), get_usage() in 3.32: bytes/s of the flows crossing the
 * link, as max-min shares them; with network/crosstraffic it includes the
 * 5% acknowledgement flows of messages going the other way). It is read
 * after every simulated time step (Engine::on_time_advance: the models have
 * advanced, the rates of the elapsed step are still in place) on every link
 * that has carried a message so far: exact, and O(links used) per step.
 * Roles come from link names and the topology (platforms/hnm_linkrole.h);
 * the columns are platforms/hnm_linkload_csv.h's, which hnm-linkplot reads.
 *
 * Settings: the SimGrid flags hnm/link-load (the output file) and
 * hnm/link-topology (the platform's topology, for the roles), each checked
 * by its validator when SimGrid reads it (a bad value ends the run with exit
 * status 2 before anything is simulated); when a flag is left at its
 * default, $HNM_LINK_LOAD and $HNM_LINK_TOPOLOGY ("TOPOLOGY PARAMETERS",
 * what hnm-run --link-load passes: a path or SimGrid's topo_parameters may
 * hold the ',' and ' ' that --cfg= splits at).
 *
 * The file is written once, at Engine::on_simulation_end, through
 * core/hnm_out (a regular file replaced whole; a device or FIFO written
 * through; never replaced by something else); a failure makes the run's exit
 * status 1 (hnm_status.h).
 */
#include "hnm_linkload.h"

#include "hnm_csv.h"
#include "hnm_error.h"
#include "hnm_linkload_csv.h"
#include "hnm_linkrole.h"
#include "hnm_log.hpp"
#include "hnm_out.h"
#include "hnm_simgrid_version.hpp"
#include "hnm_status.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(hnm_linkload, hnm, "hnm: per-link load recorder (hnm-run --link-load)");

namespace {

struct LinkStat {
  double bytes    = 0; /* routed through the link */
  double integral = 0; /* of usage over time: bytes/s x s */
  double busy     = 0; /* s */
  double peak     = 0; /* bytes/s */
};

/* Plain data, set by hnm_linkload_init() once the command line is read. */
bool enabled      = false;
const char* path  = nullptr;
hnm_linkrole_topo topo;
std::unordered_map<const sg4::Link*, LinkStat> stats;
std::vector<const sg4::Link*> used; /* links in stats, in first-use order */

void on_step(double delta)
{
  for (const sg4::Link* l : used) {
    double u   = hnm_sg_link_load(l);
    LinkStat& s = stats[l];
    s.integral += u * delta;
    if (u > 0)
      s.busy += delta;
    s.peak = std::max(s.peak, u);
  }
}

/* The CSV, through core's one output writer (core/hnm_out.h): a regular file is
 * replaced whole or not at all, a device, FIFO or symbolic link is written
 * as it is (a link keeps pointing at the new content). A failure is one
 * line, and the run's exit status (hnm_status.h). */
void write_file()
{
  double end = sg4::Engine::get_clock();
  std::vector<const sg4::Link*> links(used);
  std::sort(links.begin(), links.end(),
            [](const sg4::Link* a, const sg4::Link* b) { return a->get_name() < b->get_name(); });
  char err[1200];
  hnm_out* o = hnm_out_open(path, "--link-load", err, sizeof err);
  if (o == nullptr) {
    hnm_status_fail(1, err);
    return;
  }
  FILE* f = hnm_out_file(o);
  std::fprintf(f, "%s\n", HNM_LINKLOAD_HEADER);
  for (const sg4::Link* l : links) {
    const LinkStat& s = stats[l];
    hnm_linkrole r;
    hnm_linkrole_of(l->get_cname(), &topo, &r);
    double bw = l->get_bandwidth();
    /* A platform file may name a link with a comma or a quote: quoted. */
    hnm_csv_put(f, l->get_cname());
    std::fprintf(f, ",%s,%ld,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.17g\n", r.role, r.a, r.b, r.c, bw, s.bytes, s.busy,
                 end > 0 ? s.integral / (bw * end) : 0.0, s.peak / bw);
  }
  if (hnm_out_commit(o, err, sizeof err) != 0)
    hnm_status_fail(1, err);
}

} // namespace

namespace {

/* "TOPOLOGY:PARAMETERS" of --cfg=hnm/link-topology, whose PARAMETERS write
 * the commas of SimGrid's topo_parameters as 'x' ("TORUS:8x8x8",
 * "DRAGONFLY:3x4;4x3;5x1;2"), into t. 0, or -1 with the reason. */
int parse_topology_flag(const std::string& v, hnm_linkrole_topo* t, std::string& why)
{
  size_t colon = v.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == v.size()) {
    why = "not TOPOLOGY:PARAMETERS (e.g. TORUS:8x8x8, FAT_TREE:2;4x4;1x2;1x2, DRAGONFLY:3x4;4x3;5x1;2)";
    return -1;
  }
  std::string params = v.substr(colon + 1);
  std::replace(params.begin(), params.end(), 'x', ',');
  if (hnm_linkrole_topo_parse(v.substr(0, colon).c_str(), params.c_str(), t) != 0) {
    why = "not a topology hnm reads link roles of (TORUS, FAT_TREE, DRAGONFLY, hnm-torus, hnm-fattree, "
          "hnm-dragonfly, with SimGrid's topo_parameters, commas written x)";
    return -1;
  }
  return 0;
}

simgrid::config::Flag<std::string> cfg_link_load{
    "hnm/link-load",
    "hnm: write per-link load (CSV, docs/experiments.md) to this file at the end of the simulation (default: "
    "$HNM_LINK_LOAD, else none)",
    "", [](const std::string& v) {
      char err[HNM_ERRLEN];
      if (not v.empty() && hnm_out_check(v.c_str(), "--cfg=hnm/link-load", err, sizeof err) != 0)
        hnm_log_fatal(&_XBT_LOGV(hnm_linkload), err);
    }};
simgrid::config::Flag<std::string> cfg_link_topology{
    "hnm/link-topology",
    "hnm: the platform's topology for the link roles of hnm/link-load, TOPOLOGY:PARAMETERS with SimGrid's "
    "topo_parameters, commas written x (TORUS:8x8x8; default: $HNM_LINK_TOPOLOGY, else roles from link names)",
    "", [](const std::string& v) {
      hnm_linkrole_topo t;
      std::string why;
      if (not v.empty() && parse_topology_flag(v, &t, why) != 0)
        hnm_log_fatal(&_XBT_LOGV(hnm_linkload), "--cfg=hnm/link-topology:" + v + ": " + why);
    }};

} // namespace

void hnm_linkload_init()
{
  /* The flag, else the environment (hnm-run's way). */
  std::string file = cfg_link_load.get();
  if (file.empty()) {
    const char* p = std::getenv("HNM_LINK_LOAD");
    if (p == nullptr || *p == '\0')
      return;
    file = p;
  }
  enabled = true;
  path    = strdup(file.c_str());
  std::memset(&topo, 0, sizeof topo);
  std::string why;
  if (not cfg_link_topology.get().empty()) {
    parse_topology_flag(cfg_link_topology.get(), &topo, why); /* valid: its validator passed */
  } else if (const char* t = std::getenv("HNM_LINK_TOPOLOGY")) {
    std::string s(t);
    size_t sp = s.find(' ');
    if (sp != std::string::npos)
      hnm_linkrole_topo_parse(s.substr(0, sp).c_str(), s.substr(sp + 1).c_str(), &topo);
  }
  XBT_VERB("recording per-link load into %s%s", path, topo.known ? " (topology known)" : "");
  sg4::Engine::on_time_advance_cb(on_step);
  sg4::Engine::on_simulation_end_cb(write_file);
}

void hnm_linkload_route(double size, const std::vector<sg4::Link*>& links)
{
  if (!enabled)
    return;
  for (const sg4::Link* l : links) {
    auto [it, fresh] = stats.try_emplace(l);
    if (fresh)
      used.push_back(l);
    it->second.bytes += size;
  }
}
