/* hnm_simgrid.cpp -- libhnm.so's entry point into SimGrid (one of the C++ files of plugin/, docs/architecture.md).
 *
 * libhnm.so is preloaded into SMPI's smpimain (hnm-run does it through
 * smpirun's -wrapper). It declares its settings as SimGrid configuration
 * flags (hnm/model, hnm/verbose, hnm/seed, hnm/fast, and hnm_linkload.cpp's
 * hnm/link-load and hnm/link-topology: shown by --cfg-help, set by
 * --cfg=hnm/...; the environment variables $HNM_MODEL, $HNM_VERBOSE,
 * $HNM_LINK_LOAD and $HNM_LINK_TOPOLOGY are the fallback when a flag is left
 * at its default) and prints through SimGrid's logging (hnm_log.hpp). Once
 * the command line is parsed
 * (Engine::on_platform_creation_cb) it loads the model with the C core, and
 * installs it through SimGrid's extension points (hnm_simgrid_version.hpp
 * holds what differs between versions):
 *   - smpi_register_op_cost_callback(): MPI_Send / MPI_Isend / MPI_Recv
 *     overheads (replaces smpi/os, smpi/ois, smpi/or);
 *   - once the platform exists (Engine::on_platform_created_cb):
 *     the root zone's latency and bandwidth factor callbacks (replace
 *     smpi/lat-factor and smpi/bw-factor), the protocol thresholds
 *     (smpi/async-small-thresh, smpi/send-is-detached-thresh), cross-traffic,
 *     node limiter links, and FATPIPE links for contention-free models;
 *   - a model's one-sided costs (<rma>) through the MPI profiling interface
 *     (hnm_rma.cpp): the cost callbacks below ask it first.
 *   - before the network model exists (Engine::on_platform_creation_cb): the
 *     mend of SimGrid's selective max-min update (hnm_lmm_fix.h), or
 *     network/optim:Full when it cannot be installed;
 *   - the model's derived-datatype pack costs (hnm_pack.cpp: PMPI entry
 *     points of libhnm.so, which hnm-run preloads).
 *
 * Stochastic mode (a model with stochastic="on", docs/model-format.md): each
 * message draws a residual rho from the quantiles measured nearest its size
 * (its segment's per-size table, else the segment's own) and lasts rho
 * times its modelled one-way time, the difference carried by its transfer
 * (hnm_wire_multiplier()); a reply (a message from B to A while a message
 * from A to B has not been answered) takes its request's draw. The draws are
 * numbered in the order SimGrid starts transfers
 * (NetworkCm02Model::comm_action_set_bounds(), run by maestro while it
 * handles the actors' simcalls one after the other, in an order that does not
 * depend on which thread ran which actor), and the n-th draw is a function of
 * (seed, n) alone (hnm_random_uniform()): the same seed gives the same
 * simulation. The overhead callbacks, which run in the actors' own contexts
 * (in parallel under contexts/nthreads > 1), draw nothing.
 *
 * LogGPS models are timed differently (hnm_ports.h, docs/models.md): when
 * SimGrid starts a transfer, the latency callback computes its whole duration
 * from the message's phases and the ports of its two hosts (a host extension,
 * O(1)), and returns it as latency at a rate that never binds; every link is
 * a FATPIPE with a latency of its own, so no platform value reaches the
 * result.
 *
 * Invariants: the model is loaded once and never changes; the factor and cost
 * callbacks run once per simulated message, so they do a binary search over
 * a handful of segments and (for absolute segments only) one walk over the
 * route, and never allocate (except the pending-Isend map of a LogGPS
 * model, one entry per rendez-vous Isend in flight). No C++ exception
 * crosses into C or out of the callbacks registered with SimGrid: errors end
 * the simulation with exit 2 and a message naming the option at fault,
 * before any simulated time runs.
 */
#include "hnm_linkload.h"
#include "hnm_linkrole.h"
#include "hnm_route_observer.h"
#include "hnm_detached_fix.h"
#include "hnm_win_fix.h"
#include "hnm_lmm_fix.h"
#include "hnm_log.hpp"
#include "hnm_model.h"
#include "hnm_rma.h"
#include "hnm_pack.h"
#include "hnm_simgrid_version.hpp"
#include "hnm_status.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <smpi/smpi.h>
#include <xbt/Extendable.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

/* The plugin's categories (hnm_log.hpp). */
XBT_LOG_NEW_DEFAULT_CATEGORY(hnm, "hnm: the network model plugin (libhnm.so)");
XBT_LOG_NEW_SUBCATEGORY(hnm_trace, hnm, "hnm: one line per LogGPS message and per derived-datatype pack (verbose)");

namespace {

hnm_model* model = nullptr;
bool verbose     = false;
bool warned_lost_latency = false;
bool warned_over_link    = false;

/* LogGPS models are timed by hnm_ports (see hnm_ports.h): the whole transfer
 * is a latency computed when SimGrid starts it, at a rate that never binds. */
bool is_loggps = false;
hnm_loggps loggps{};

/* The links' latencies as the platform declares them: under LogGPS every
 * link gets LOGGPS_LINK_LATENCY, but loggps:platform and the platform check
 * below need the declared ones. Filled once, before the simulation. */
std::unordered_map<const sg4::Link*, double> declared_latency;
bool checked_platform = false; /* the one-line platform check was made */

/* Per-host state of a LogGPS model, attached to each s4u::Host as a SimGrid
 * extension so that a message finds it in O(1). */
struct HostState {
  static simgrid::xbt::Extension<sg4::Host, HostState> EXTENSION_ID;
  unsigned long index; /* 0 .. hosts-1, for the pending-Isend keys */
  hnm_node_ports ports{};
};
simgrid::xbt::Extension<sg4::Host, HostState> HostState::EXTENSION_ID;

HostState* host_state(const sg4::Host* h)
{
  return h->extension<HostState>();
}

/* Rendez-vous MPI_Isend calls whose transfer has not started yet, per
 * (source host, destination host): SMPI charged them o already (Figure 1(c)),
 * so their transfer is o shorter than a blocking MPI_Send's. SMPI calls the
 * Isend cost callback just before the Isend posts its message, and the
 * latency callback when the transfer starts; the entry is removed at zero, so
 * the map holds at most the rendez-vous Isends in flight. Fast mode counts
 * the same way the sends whose overhead SMPI charged (note_charged_send()). */
std::unordered_map<unsigned long long, long> pending_isends;

unsigned long long pair_key(const sg4::Host* src, const sg4::Host* dst)
{
  return ((unsigned long long)host_state(src)->index << 32) | host_state(dst)->index;
}

bool take_pending_isend(const sg4::Host* src, const sg4::Host* dst)
{
  auto it = pending_isends.find(pair_key(src, dst));
  if (it == pending_isends.end())
    return false;
  if (--it->second == 0)
    pending_isends.erase(it);
  return true;
}

/* The model spec of --model, checked as soon as SimGrid parses the option
 * so that a bad one stops the run before the platform is even loaded. */
void load_model(const std::string& spec, const char* origin)
{
  char err[HNM_ERRLEN];
  hnm_model* m = hnm_model_parse_spec(spec.c_str(), err, sizeof err);
  if (m == nullptr)
    hnm_log_fatal(&_XBT_LOGV(hnm), std::string(origin) + ": " + err);
  hnm_model_free(model);
  model = m;
}

simgrid::config::Flag<std::string> cfg_model{
    "hnm/model",
    "hnm network model: graphene, loggps, fluid, smpi-default, or a model file (with '/' or ending in .xml), "
    "optionally followed by an override NAME:key=value (SimGrid splits --cfg values at ',': give several "
    "overrides through hnm-run --model or $HNM_MODEL) (default: $HNM_MODEL)",
    "", [](const std::string& spec) {
      if (not spec.empty())
        load_model(spec, "--cfg=hnm/model");
    }};
simgrid::config::Flag<bool> cfg_verbose{
    "hnm/verbose",
    "hnm: report the installed model on stderr (category hnm, info; default: $HNM_VERBOSE set and not 0)", false};
simgrid::config::Flag<std::string> cfg_seed{
    "hnm/seed",
    "hnm: the seed of a stochastic model's draws, a whole number (default: the model's seed attribute, else 1)", "",
    [](const std::string& v) {
      if (v.empty())
        return;
      if (v.find_first_not_of("0123456789") != std::string::npos || v.size() > 20 ||
          (v.size() == 20 && v > "18446744073709551615"))
        hnm_log_fatal(&_XBT_LOGV(hnm), "--cfg=hnm/seed:" + v + ": not a whole number from 0 to 18446744073709551615");
    }};
simgrid::config::Flag<bool> cfg_fast{
    "hnm/fast",
    "hnm: fast mode for large runs (hnm-run --fast, docs/scale.md): every message rendez-vous; a message the "
    "model sends eagerly or detached carries its send and receive overheads as latency instead (not exact: its "
    "error is measured in docs/scale.md)",
    false};
simgrid::config::Flag<bool> cfg_detached_remedy{
    "hnm/detached-remedy",
    "hnm: keep SimGrid 3.32's list of detached transfers short (hnm_detached_fix.cpp; from 3.34 a set, nothing to do; changes no simulated time, "
    "only the CPU a run takes: off to measure SimGrid's own list)",
    true};

simgrid::config::Flag<bool> cfg_unlock_remedy{
    "hnm/unlock-remedy",
    "hnm: let SMPI 3.32's MPI_Win_unlock and one-sided operations find the caller's lock without walking the "
    "window's list of lockers (hnm_win_fix.cpp; changes no simulated time, only the CPU a run takes: off to "
    "measure SMPI's own)",
    true};

/* Stochastic mode: the seed, the number of draws so far, and the wire
 * multiplier drawn by bw_factor_cb() for the message whose latency factor
 * SimGrid asks for next (comm_action_set_bounds() calls the bandwidth factor,
 * then the latency factor, of one message). */
bool stochastic                = false;
unsigned long long seed        = 1;
unsigned long long draws       = 0;
/* The uniform number of each message from A to B not answered yet, by
 * pair_key(A, B): a message from B to A takes it (and removes it), so that
 * a request and its reply share one draw and a round trip lasts rho times
 * its modelled time, rho with exactly the segment's distribution. At most
 * one entry per ordered pair of hosts with a message in flight. */
std::unordered_map<unsigned long long, double> unanswered;
struct Drawn {
  const sg4::Host* src = nullptr;
  const sg4::Host* dst = nullptr;
  double size          = -1;
  double multiplier    = 1;
} drawn;

/* Fast mode: the largest payload the model would send eagerly or detached
 * (SMPI's thresholds are then 0); -1 when fast mode is off. */
double fast_eager_max = -1;

/* SimGrid 3.32 hands the receive-cost callback a null source host when the
 * message arrived before MPI_Recv was posted. The loader guarantees that
 * receive overheads do not depend on the route class, so any class will do;
 * remote is used. */
hnm_route_class route_class(const sg4::Host* src, const sg4::Host* dst)
{
  if (src == nullptr || dst == nullptr)
    return HNM_ROUTE_REMOTE;
  if (src == dst)
    return HNM_ROUTE_SAME_HOST;
  if (src->get_englobing_zone() == dst->get_englobing_zone())
    return HNM_ROUTE_SAME_ZONE;
  return HNM_ROUTE_REMOTE;
}

/* SimGrid passes size = k + 16 (SMPI's envelope); segments are keyed by k. */
double payload_to_k(double size)
{
  return size > HNM_SMPI_ENVELOPE_BYTES ? size - HNM_SMPI_ENVELOPE_BYTES : 0.0;
}

/* Large enough never to bind, small enough to keep max-min arithmetic sane. */
constexpr double UNLIMITED_BANDWIDTH = 1e20; /* bytes/s */

double route_latency(const std::vector<sg4::Link*>& links)
{
  double route_lat = 0.0;
  for (const sg4::Link* l : links)
    route_lat += l->get_latency();
  return route_lat;
}

/* The route as the platform declares it: its latency (seconds) and its
 * narrowest bandwidth (bytes/s, 0 if none), SimGrid's T = L + k / B for a
 * lone flow. O(route length). */
void declared_route(const std::vector<sg4::Link*>& links, double* latency, double* bandwidth)
{
  *latency   = 0.0;
  *bandwidth = 0.0;
  for (const sg4::Link* l : links) {
    auto it = declared_latency.find(l);
    *latency += it != declared_latency.end() ? it->second : l->get_latency();
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::WIFI)
      continue;
    if (*bandwidth == 0.0 || l->get_bandwidth() < *bandwidth)
      *bandwidth = l->get_bandwidth();
  }
}

/* Once, at the first message between two hosts: a model whose absolute
 * values (LogGPS's L and G, a fitted segment table's bandwidth) are far from
 * the platform's route is timing another machine. One line says so, and
 * what to do; nothing changes. "Far": more than a factor of 2 either way. */
void check_platform_once(const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links)
{
  if (checked_platform || src == dst)
    return;
  checked_platform = true;
  double lat, bw;
  declared_route(links, &lat, &bw);
  if (!(bw > 0))
    return;
  auto far = [](double a, double b) { return a > 2 * b || b > 2 * a; };
  if (is_loggps && not loggps.from_route) {
    double model_bw = loggps.G > 0 ? 1 / loggps.G : INFINITY;
    if (far(model_bw, bw) || (lat > 0 && far(loggps.L, lat)))
      XBT_INFO("note: model '%s' has its own L = %g s and 1/G = %g bytes/s, not this platform's (route %s "
                   "-> %s: %g s, %g bytes/s); --model %s:platform takes L and G from each route",
                   hnm_model_name(model), loggps.L, model_bw, src->get_cname(), dst->get_cname(), lat, bw,
                   hnm_model_name(model));
    return;
  }
  if (is_loggps)
    return;
  /* The fastest of the route class's absolute bandwidths: a platform built
   * for the model (hnm-calibrate machine gives its links exactly that
   * rate, so that they never cap it) is the model's machine, even where
   * the largest messages go slower. */
  size_t n                 = 0;
  const hnm_segment* segs  = hnm_model_segments(model, route_class(src, dst), &n);
  double fastest           = 0.0;
  for (size_t k = 0; segs != nullptr && k < n; k++)
    if (segs[k].bandwidth_absolute && segs[k].bandwidth_Bps < HNM_MAX_BANDWIDTH && segs[k].bandwidth_Bps > fastest)
      fastest = segs[k].bandwidth_Bps;
  if (fastest > 0 && far(fastest, bw))
    XBT_INFO("note: model '%s' moves its fastest messages at %g bytes/s of its own (absolute, fitted "
                 "elsewhere), and this platform's route %s -> %s has %g bytes/s: times follow the model's machine; "
                 "calibrate on this one, or use a model of factors (graphene)",
                 hnm_model_name(model), fastest, src->get_cname(), dst->get_cname(), bw);
}

/* A LogGPS transfer: SimGrid charges latency x factor + size / rate, with the
 * rate set to UNLIMITED_BANDWIDTH by bw_factor_cb; the factor makes the whole
 * last the duration hnm_ports_transfer() gives. Called once per message, when
 * SimGrid starts the transfer (NetworkCm02Model::communicate()), so the
 * simulated clock is the transfer's start. */
double loggps_lat_factor(double size, const sg4::Host* src, const sg4::Host* dst,
                         const std::vector<sg4::Link*>& links)
{
  double k        = payload_to_k(size);
  bool from_isend = k > loggps.S && take_pending_isend(src, dst);
  hnm_loggps p    = loggps;
  if (p.from_route) {
    /* loggps:platform: this route's L and G (SimGrid's T = L + k / B). */
    double lat, bw;
    declared_route(links, &lat, &bw);
    p.L = lat;
    p.g = p.G = bw > 0 ? 1 / bw : 0;
  }
  hnm_phases ph;
  hnm_loggps_phases(&p, k, from_isend, &ph);
  double now      = sg4::Engine::get_clock();
  double duration = hnm_ports_transfer(&p, &host_state(src)->ports, &host_state(dst)->ports, now, &ph);
  XBT_CVERB(hnm_trace, "message %s -> %s, %.0f bytes%s: starts %.17g, delivered %.17g", src->get_cname(),
                 dst->get_cname(), k, from_isend ? " (MPI_Isend)" : "", now, now + duration);
  double latency = std::max(duration - size / UNLIMITED_BANDWIDTH, 0.0);
  double route_lat = route_latency(links);
  if (route_lat > 0)
    return latency / route_lat;
  if (latency > 0 && not warned_lost_latency) {
    warned_lost_latency = true;
    XBT_WARN("warning: route %s -> %s has zero latency and no link hnm could give one, so model '%s' "
                 "cannot time its messages; report this platform",
                 src->get_cname(), dst->get_cname(), hnm_model_name(model));
  }
  return 1.0;
}

/* Fast mode: SMPI charges the receiver of an eager or detached message its
 * receive overhead (Request::finish, only for detached senders), and the
 * sender of a blocking MPI_Send its send overhead only when the send is
 * detached. With every message rendez-vous, the overheads SMPI no longer
 * charges go onto the wire, so that the receiver completes when it would
 * have: LATENCY x factor + overhead = LATENCY x (factor + overhead /
 * LATENCY). The send overhead is added unless SMPI charged it already
 * (MPI_Isend, MPI_Ssend: pending_isends). A zero-latency route cannot carry
 * it (the first such route is reported). */
double fast_factor(double factor, const hnm_segment* seg, double k, const sg4::Host* src, const sg4::Host* dst,
                   double route_lat)
{
  if (k > fast_eager_max)
    return factor;
  double overhead = hnm_segment_recv_overhead(seg, k);
  if (not take_pending_isend(src, dst))
    overhead += hnm_segment_send_overhead(seg, k);
  if (route_lat > 0)
    return factor + overhead / route_lat;
  if (overhead > 0 && not warned_lost_latency) {
    warned_lost_latency = true;
    XBT_WARN("warning: route %s -> %s has zero latency, so fast mode cannot move its receive overhead "
                 "onto it; give the platform's (loopback) links a non-zero latency",
                 src->get_cname(), dst->get_cname());
  }
  return factor;
}

double lat_factor_plain(double size, const sg4::Host* src, const sg4::Host* dst,
                        const std::vector<sg4::Link*>& links)
{
  if (not checked_platform)
    check_platform_once(src, dst, links);
  if (is_loggps)
    return loggps_lat_factor(size, src, dst, links);
  double k               = payload_to_k(size);
  const hnm_segment* seg = hnm_model_segment(model, route_class(src, dst), k);
  if (not seg->latency_absolute)
    return k > fast_eager_max ? seg->lat_factor : fast_factor(seg->lat_factor, seg, k, src, dst, route_latency(links));
  double route_lat = route_latency(links);
  int lost       = 0;
  double factor  = hnm_segment_lat_factor(seg, size, route_lat, &lost);
  if (fast_eager_max >= 0)
    factor = fast_factor(factor, seg, k, src, dst, route_lat);
  if (lost && not warned_lost_latency) {
    warned_lost_latency = true;
    XBT_WARN("warning: route %s -> %s has zero latency, so model '%s' cannot give it its absolute "
                 "latency; give the platform's (loopback) links a non-zero latency",
                 src->get_cname(), dst->get_cname(), hnm_model_name(model));
  }
  return factor;
}

hnm_route_observer_fn route_observer;
void* route_observer_ctx;

double bw_factor_plain(double size, const sg4::Host* src, const sg4::Host* dst,
                       const std::vector<sg4::Link*>& links)
{
  hnm_linkload_route(size, links);
  if (route_observer != nullptr)
    route_observer(route_observer_ctx, size, reinterpret_cast<void* const*>(links.data()), links.size());
  const hnm_segment* seg = nullptr;
  if (not is_loggps) {
    seg = hnm_model_segment(model, route_class(src, dst), payload_to_k(size));
    if (not seg->bandwidth_absolute)
      return seg->bw_factor;
  }
  /* Same bound as SimGrid's NetworkCm02Model::comm_action_set_bounds(). */
  const sg4::Link* narrowest = nullptr;
  for (const sg4::Link* l : links) {
    if (l->get_sharing_policy() == sg4::Link::SharingPolicy::WIFI)
      continue;
    if (narrowest == nullptr || l->get_bandwidth() < narrowest->get_bandwidth())
      narrowest = l;
  }
  if (narrowest == nullptr || narrowest->get_bandwidth() <= 0)
    return 1.0;
  double min_bw = narrowest->get_bandwidth();
  if (is_loggps)
    return UNLIMITED_BANDWIDTH / min_bw;
  if (seg->bandwidth_Bps > min_bw && hnm_model_contention(model) == HNM_CONTENTION_MAXMIN && not warned_over_link) {
    warned_over_link = true;
    XBT_WARN("warning: model '%s' gives %g-byte messages %g bytes/s, more than link %s (%g bytes/s) on "
                 "route %s -> %s: SimGrid then scales this link's max-min shares up to the model's rate (flows "
                 "sharing it get %g bytes/s between them, not %g); lower the segment's bandwidth or raise the link's",
                 hnm_model_name(model), payload_to_k(size), seg->bandwidth_Bps, narrowest->get_cname(), min_bw,
                 src->get_cname(), dst->get_cname(), seg->bandwidth_Bps, min_bw);
  }
  return hnm_segment_bw_factor(seg, min_bw);
}

/* Stochastic mode, from bw_factor_cb(): draw the residual of a message of
 * SIZE bytes (payload + envelope) in segment SEG over LINKS, and return its
 * wire multiplier w (1 without residuals). Its one-way time under the model,
 * T = overheads + wire, becomes overheads + w x wire = rho x T; the wire time
 * is the route's latency x factor + size / (narrowest link x factor), what
 * SimGrid gives a flow alone on its route. */
double draw_wire_multiplier(double size, const sg4::Host* src, const sg4::Host* dst, const hnm_segment* seg,
                            const std::vector<sg4::Link*>& links)
{
  if (seg->nresiduals < 2 && seg->nsized == 0)
    return 1.0;
  double k      = payload_to_k(size);
  double u;
  auto reply = unanswered.find(pair_key(dst, src));
  if (reply != unanswered.end()) {
    u = reply->second;
    unanswered.erase(reply);
  } else {
    u                          = hnm_random_uniform(seed, draws++);
    unanswered[pair_key(src, dst)] = u;
  }
  /* The table measured nearest k, else the segment's (O(log tables)). */
  double rho    = hnm_segment_residual_at(seg, k, u);
  double min_bw = 0;
  for (const sg4::Link* l : links)
    if (l->get_sharing_policy() != sg4::Link::SharingPolicy::WIFI && (min_bw == 0 || l->get_bandwidth() < min_bw))
      min_bw = l->get_bandwidth();
  double latency = seg->latency_absolute ? seg->latency_s : route_latency(links) * seg->lat_factor;
  double wire    = latency + (seg->bandwidth_absolute ? k / seg->bandwidth_Bps
                                                      : (min_bw > 0 ? size / (min_bw * seg->bw_factor) : 0.0));
  /* A blocking send pays its overhead, and its receiver the receive
   * overhead, unless the message goes rendez-vous. */
  long detached = hnm_model_detached_max(model);
  double over   = detached >= 0 && k <= (double)detached
                      ? hnm_segment_send_overhead(seg, k) + hnm_segment_recv_overhead(seg, k)
                      : 0.0;
  return hnm_wire_multiplier(rho, over, wire);
}

double lat_factor_cb(double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
                     const std::unordered_set<sg4::NetZone*>& /*netzones*/)
{
  double factor = lat_factor_plain(size, src, dst, links);
  if (stochastic && drawn.src == src && drawn.dst == dst && drawn.size == size) {
    factor *= drawn.multiplier;
    drawn = Drawn{};
  }
  return factor;
}

double bw_factor_cb(double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
                    const std::unordered_set<sg4::NetZone*>& /*netzones*/)
{
  double factor = bw_factor_plain(size, src, dst, links);
  if (stochastic && not is_loggps) {
    double w = draw_wire_multiplier(size, src, dst,
                                    hnm_model_segment(model, route_class(src, dst), payload_to_k(size)), links);
    drawn    = Drawn{src, dst, size, w};
    factor /= w;
  }
  return factor;
}

/* A node limiter's B: the bandwidth of the node's own link beside it
 * (platforms/hnm_linkrole.h has the naming rule), or -1 for any other link
 * (a cabinet's limiter, say: topology, left alone). BY_NAME: every link of
 * the platform by name, built once (SimGrid 3.32's Link::by_name_or_null
 * searches zone after zone: O(zones) per call, 1 s of a 16,384-rank run's
 * start on 512 cabinets). */
double node_limiter_base_bandwidth(const sg4::Link* link,
                                   const std::unordered_map<std::string_view, const sg4::Link*>& by_name)
{
  const std::string& name = link->get_name();
  size_t n                = hnm_linkrole_limiter_base(name.c_str());
  for (const char* const* owner = hnm_linkrole_limiter_owner; n > 0 && *owner != nullptr; owner++) {
    auto own = by_name.find(name.substr(0, n) + *owner);
    if (own != by_name.end())
      return own->second->get_bandwidth();
  }
  return -1.0;
}

/* Set a SimGrid option the model owns. An explicit user setting that
 * disagrees with the model is an error, as SimGrid itself refuses to mix
 * smpi/lat-factor with a factor callback. */
template <class T> void set_config_or_die(const char* key, T value, const char* shown)
{
  if (not simgrid::config::is_default(key) && simgrid::config::get_value<T>(key) != value)
    hnm_log_fatal(&_XBT_LOGV(hnm),
                  std::string("--cfg=") + key + " conflicts with model '" + hnm_model_name(model) + "' (which sets " + shown +
        "); remove the option or change the model");
  sg4::Engine::set_config(key, value);
}

/* A latency every link gets under a LogGPS model. SimGrid multiplies the
 * route's latency by the latency factor, so a route must not add up to zero
 * (a cluster's loopback, a zero-latency link); any positive value will do,
 * since the factor then makes the transfer last what hnm_ports_transfer()
 * says, and link latencies have no other effect once every link is a
 * FATPIPE and TCP-gamma is lifted. */
constexpr double LOGGPS_LINK_LATENCY = 1e-6; /* seconds */

bool lazy_defect_possible();

void install_host_states(sg4::Engine* engine)
{
  HostState::EXTENSION_ID = sg4::Host::extension_create<HostState>();
  unsigned long index     = 0;
  for (sg4::Host* host : engine->get_all_hosts()) {
    auto* st  = new HostState();
    st->index = index++;
    host->extension_set(st);
  }
}

void install_loggps(sg4::Engine* engine)
{
  for (sg4::Link* link : engine->get_all_links()) {
    declared_latency[link] = link->get_latency();
    link->set_latency(LOGGPS_LINK_LATENCY);
  }
  if (sg4::Link* loopback = sg4::Link::by_name_or_null("__loopback__")) {
    declared_latency[loopback] = loopback->get_latency();
    loopback->set_latency(LOGGPS_LINK_LATENCY);
  }
}

void install_on_platform()
{
  auto* engine = sg4::Engine::get_instance();

  /* SMPI keeps its thresholds in an int: a larger threshold means "always". */
  int async    = (int)std::min<long>(hnm_model_smpi_async_thresh(model), INT_MAX);
  int detached = (int)std::min<long>(hnm_model_smpi_detached_thresh(model), INT_MAX);
  if (cfg_fast) {
    if (is_loggps)
      hnm_log_fatal(&_XBT_LOGV(hnm), "--cfg=hnm/fast: model '" + std::string(hnm_model_name(model)) +
          "' is LogGPS, whose transfers are already O(1) each; fast mode applies to max-min models");
    /* SMPI detaches (and sends eagerly) a message of size < threshold. */
    fast_eager_max = std::max(async, detached) - 1.0;
    async = detached = 0;
  }
  set_config_or_die("smpi/async-small-thresh", async, std::to_string(async).c_str());
  set_config_or_die("smpi/send-is-detached-thresh", detached, std::to_string(detached).c_str());
  switch (hnm_model_crosstraffic(model)) {
    case HNM_CROSSTRAFFIC_ON:
      set_config_or_die("network/crosstraffic", true, "yes");
      break;
    case HNM_CROSSTRAFFIC_OFF:
      set_config_or_die("network/crosstraffic", false, "no");
      break;
    default:
      break;
  }

  try {
    hnm_sg_set_factor_cbs(lat_factor_cb, bw_factor_cb);
  } catch (const std::exception& e) {
    hnm_log_fatal(&_XBT_LOGV(hnm),
                  std::string(e.what()) + " (hnm installs these factors; remove --cfg=smpi/lat-factor and smpi/bw-factor)");
  }

  int limiters = 0;
  bool fatpipe = hnm_model_contention(model) == HNM_CONTENTION_NONE;
  std::vector<sg4::Link*> all_links = engine->get_all_links();
  std::unordered_map<std::string_view, const sg4::Link*> by_name;
  by_name.reserve(all_links.size());
  for (const sg4::Link* link : all_links)
    by_name.emplace(link->get_name(), link);
  for (sg4::Link* link : all_links) {
    double base = node_limiter_base_bandwidth(link, by_name);
    if (base > 0) {
      limiters++;
      switch (hnm_model_limiter_mode(model)) {
        case HNM_LIMITER_OFF:
          link->set_bandwidth(UNLIMITED_BANDWIDTH);
          break;
        case HNM_LIMITER_FACTOR:
          link->set_bandwidth(hnm_model_limiter_factor(model) * base);
          break;
        default:
          break;
      }
    }
    if (fatpipe && link->get_sharing_policy() != sg4::Link::SharingPolicy::WIFI)
      link->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  }
  hnm_rma rma;
  if (hnm_model_rma(model, &rma)) {
    if (cfg_fast)
      hnm_log_fatal(&_XBT_LOGV(hnm), "--cfg=hnm/fast: model '" + std::string(hnm_model_name(model)) +
          "' has one-sided costs (<rma>), which fast mode would put on the wire as point-to-point overheads; "
          "drop --fast or the model's <rma>");
    hnm_rma_install(&rma, hnm_model_name(model));
  }
  if (is_loggps || fast_eager_max >= 0 || stochastic)
    install_host_states(engine);
  hnm_pack_install(model, XBT_LOG_ISENABLED(hnm_trace, xbt_log_priority_verbose));
  if (is_loggps)
    install_loggps(engine);
  if (fatpipe) {
    /* SimGrid bounds each flow by TCP-gamma / (2 x route latency), a window
     * limit that a contention-free delay model does not have. */
    sg4::Engine::set_config("network/TCP-gamma:1e300");
  }
  if (simgrid::config::get_value<std::string>("network/optim") == "Lazy") {
    if (is_loggps)
      XBT_WARN("warning: model '%s' takes ports in the order transfers start, and under SimGrid's "
                   "network/optim:Lazy that order depends on the platform's link values (docs/models.md); add "
                   "--cfg=network/optim:Full (hnm-run does unless told otherwise)",
                   hnm_model_name(model));
    else if (lazy_defect_possible())
      XBT_WARN("warning: model '%s' shares bandwidth by max-min, and without hnm's mend SimGrid's "
                   "network/optim:Lazy can then overload a link when flows start at the same instant "
                   "(docs/lazy-bug/README.md); add --cfg=network/optim:Full",
                   hnm_model_name(model));
  }
  if (verbose)
    XBT_INFO("model '%s' installed (%d node limiter links%s%s%s%s)", hnm_model_name(model),
                 limiters, fatpipe ? ", all links FATPIPE" : "", fast_eager_max >= 0 ? ", fast mode" : "",
                 stochastic ? ", stochastic, seed " : "", stochastic ? std::to_string(seed).c_str() : "");
}

/* Fast mode: SMPI calls the send and Isend cost callbacks just before it
 * posts the message (MPI_Isend, MPI_Ssend: nothing is detached), so the
 * overhead is charged already; fast_factor() must not add it again. */
void note_charged_send(size_t size, const sg4::Host* src, const sg4::Host* dst)
{
  if (fast_eager_max >= 0 && (double)size <= fast_eager_max && src != nullptr && dst != nullptr)
    pending_isends[pair_key(src, dst)]++;
}

/* Each cost callback first asks whether the calling actor is inside an MPI
 * RMA call of a model with one-sided costs (hnm_rma.h). */
double send_cost(size_t size, sg4::Host* src, sg4::Host* dst)
{
  if (double rma; hnm_rma_cost(HnmRmaCharge::SEND, (double)size, &rma))
    return rma;
  note_charged_send(size, src, dst);
  return hnm_segment_send_overhead(hnm_model_segment(model, route_class(src, dst), (double)size), (double)size);
}
double isend_cost(size_t size, sg4::Host* src, sg4::Host* dst)
{
  if (double rma; hnm_rma_cost(HnmRmaCharge::ISEND, (double)size, &rma))
    return rma;
  if (is_loggps && (double)size > loggps.S && src != nullptr && dst != nullptr)
    pending_isends[pair_key(src, dst)]++;
  note_charged_send(size, src, dst);
  return hnm_segment_isend_overhead(hnm_model_segment(model, route_class(src, dst), (double)size), (double)size);
}
double recv_cost(size_t size, sg4::Host* src, sg4::Host* dst)
{
  if (double rma; hnm_rma_cost(HnmRmaCharge::RECV, (double)size, &rma))
    return rma;
  return hnm_segment_recv_overhead(hnm_model_segment(model, route_class(src, dst), (double)size), (double)size);
}

/* What each remedy decided at start-up and why, one line each: hnm-run
 * --explain prints it (through hnm-hosts --remedies, which loads the
 * platform with libhnm.so preloaded, as smpirun does). */
std::string remedies_report;
bool lmm_defect_absent = false; /* the self-check found no defect to mend */

void note_remedy(const char* name, const char* state, const std::string& why)
{
  remedies_report += std::string("  ") + name + ": " + state + " -- " + why + "\n";
}

/* Can SimGrid's selective-update defect change this run's results? Only
 * under max-min sharing without the mend, on a SimGrid that has it; a
 * model that asks for SimGrid's own update (smpi-default) takes it, defect
 * included. */
bool lazy_defect_possible()
{
  return hnm_model_contention(model) == HNM_CONTENTION_MAXMIN && hnm_model_update(model) == HNM_UPDATE_FIXED &&
         not hnm_lmm_fix_enabled() && not lmm_defect_absent;
}

/* Mend SimGrid's selective update (hnm_lmm_fix.h) for every model that
 * wants it. If the mend cannot be installed here and nothing chose the
 * update algorithm, fall back to network/optim:Full, which the defect does
 * not touch; SimGrid reads network/optim when it creates the network model,
 * after this (Engine::on_platform_creation). Said once, on stderr. */
void install_lmm_fix()
{
  const char* name = "Lazy max-min mend (docs/lazy-bug)";
  if (hnm_model_update(model) != HNM_UPDATE_FIXED) {
    note_remedy(name, "off", std::string("model '") + hnm_model_name(model) +
                                 "' takes SimGrid's own selective update, defect included");
    return;
  }
  std::string why;
  int rc = hnm_lmm_fix_enable(why);
  if (rc == 0) {
    note_remedy(name, "on", why);
    if (verbose)
      XBT_INFO("SimGrid's selective max-min update mended (docs/lazy-bug/README.md)");
    return;
  }
  if (rc > 0) {
    lmm_defect_absent = true;
    note_remedy(name, "not needed", why);
    if (verbose)
      XBT_INFO("note: SimGrid's selective max-min update needs no mend: %s", why.c_str());
    return;
  }
  if (hnm_model_contention(model) != HNM_CONTENTION_MAXMIN) {
    note_remedy(name, "off", why + "; no max-min sharing under this model, so nothing changes");
    return;
  }
  if (simgrid::config::is_default("network/optim")) {
    sg4::Engine::set_config("network/optim:Full");
    note_remedy(name, "off", why + "; running under network/optim:Full instead");
    XBT_INFO("note: cannot mend SimGrid's selective max-min update (%s); running under "
                 "network/optim:Full instead", why.c_str());
  } else {
    note_remedy(name, "off", why);
    XBT_INFO("note: cannot mend SimGrid's selective max-min update (%s)", why.c_str());
  }
}

/* A remedy for a cost of SimGrid that changes no simulated time
 * (hnm_detached_fix.h, hnm_win_fix.h), so that every model takes it,
 * smpi-default too, unless WANTED is off. When its guard fails SimGrid's
 * own code stays: the run is as exact, only slower (said in verbose mode).
 * Under parallel contexts SimGrid's kernel code may run on several threads,
 * and the remedies' indexes are not shared safely: SimGrid's code stays
 * (gcr at 256 ranks crashed with the detached remedy under
 * contexts/nthreads:2). */
struct remedy {
  const char* name; /* in --explain */
  const char* flag; /* its hnm/ flag */
  bool wanted;
  int (*enable)(std::string& why); /* 0 on, 1 not needed, -1 cannot */
  unsigned long long (*count)();
  const char* on;    /* the verbose line when it is on */
  const char* tally; /* the verbose line at the end: %llu, its count */
  const char* off;   /* the verbose note when it is not: what SimGrid's code does */
  unsigned long long (*count2)() = nullptr; /* a second count, or none */
  const char* tally2            = nullptr; /* its line at the end: %llu */
};

void install_remedy(const remedy& r)
{
  if (not r.wanted) {
    note_remedy(r.name, "off", std::string("--cfg=") + r.flag + ":no");
    return;
  }
  if (int nthreads = simgrid::config::get_value<int>("contexts/nthreads"); nthreads > 1) {
    note_remedy(r.name, "off", "contexts/nthreads:" + std::to_string(nthreads) + ": its index is not shared between threads");
    if (verbose)
      XBT_INFO("note: %s under contexts/nthreads:%d", r.off, nthreads);
    return;
  }
  std::string why;
  int rc = r.enable(why);
  note_remedy(r.name, rc == 0 ? "on" : rc > 0 ? "not needed" : "off", why);
  if (rc == 0) {
    if (verbose) {
      XBT_INFO("%s", r.on);
      sg4::Engine::on_simulation_end_cb([r] {
        XBT_INFO(r.tally, r.count());
        if (r.count2 != nullptr)
          XBT_INFO(r.tally2, r.count2());
      });
    }
  } else if (verbose)
    XBT_INFO("note: %s (%s)", r.off, why.c_str());
}

void install_remedies()
{
  install_remedy({"detached-transfer list (docs/scale.md)", "hnm/detached-remedy", cfg_detached_remedy,
                  hnm_detached_fix_enable, hnm_detached_fix_moved,
                  "SimGrid's detached-transfer list kept short (docs/scale.md)",
                  "%llu detached transfers kept off SimGrid's list",
                  "SimGrid's detached-transfer list stays as it is: each transfer's end walks it"});
  install_remedy({"window lockers (docs/scale.md)", "hnm/unlock-remedy", cfg_unlock_remedy, hnm_win_fix_enable,
                  hnm_win_fix_taken,
                  "SMPI's window locks found without walking the window's lockers (docs/scale.md)",
                  "%llu window locks released without walking SMPI's list of lockers",
                  "SMPI's window locks stay as they are: each unlock and one-sided operation walks the window's "
                  "list of lockers",
                  hnm_win_fix_found,
                  "%llu one-sided operations found their lock without walking SMPI's list of lockers"});
}

/* After the command line, before the platform: the flags, else the
 * environment. */
void resolve_settings()
{
  if (model == nullptr) {
    const char* spec = std::getenv("HNM_MODEL");
    if (spec == nullptr || *spec == '\0')
      hnm_log_fatal(&_XBT_LOGV(hnm),
                    "libhnm is loaded but no model is set; run through hnm-run --model NAME|FILE, or pass "
          "--cfg=hnm/model:NAME|FILE (or set HNM_MODEL)");
    load_model(spec, "HNM_MODEL");
  }
  const char* v = std::getenv("HNM_VERBOSE");
  verbose = simgrid::config::is_default("hnm/verbose") ? v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0
                                                       : bool(cfg_verbose);
  /* HNM_VERBOSE=2, the fallback of --log=hnm_trace.thres:verbose: also one
   * line per LogGPS message and derived-datatype pack (tests/sim/loggps_ports.sh
   * reads the order of the transfers from it). A threshold given with --log
   * for hnm_trace itself stands. */
  if (v != nullptr && std::strcmp(v, "2") == 0 && _XBT_LOGV(hnm_trace).isThreshInherited)
    xbt_log_threshold_set(&_XBT_LOGV(hnm_trace), xbt_log_priority_verbose);
  is_loggps      = hnm_model_loggps(model, &loggps) != 0;
  stochastic     = hnm_model_stochastic(model) != 0;
  std::string s  = cfg_seed.get();
  seed           = s.empty() ? hnm_model_seed(model) : std::strtoull(s.c_str(), nullptr, 10);
  install_lmm_fix();
  install_remedies();
  hnm_linkload_init();
}

} // namespace

/* The remedies' decisions of this process, one line each (empty before
 * the platform is loaded): for hnm-hosts --remedies. */
extern "C" const char* hnm_plugin_remedies()
{
  return remedies_report.c_str();
}

extern "C" void hnm_route_observer_set(hnm_route_observer_fn fn, void* ctx)
{
  route_observer     = fn;
  route_observer_ctx = ctx;
}

__attribute__((constructor)) static void hnm_plugin_init()
{
  hnm_log_setup(&_XBT_LOGV(hnm));
  try {
    sg4::Engine::on_platform_creation_cb([] { resolve_settings(); });
    smpi_register_op_cost_callback(SmpiOperation::SEND, send_cost);
    smpi_register_op_cost_callback(SmpiOperation::ISEND, isend_cost);
    smpi_register_op_cost_callback(SmpiOperation::RECV, recv_cost);
    hnm_status_init();
    sg4::Engine::on_platform_created_cb([] {
      try {
        install_on_platform();
      } catch (const std::exception& e) {
        hnm_log_fatal(&_XBT_LOGV(hnm), std::string("cannot install the model: ") + e.what());
      }
    });
  } catch (const std::exception& e) {
    hnm_log_fatal(&_XBT_LOGV(hnm), std::string("cannot register with SimGrid: ") + e.what());
  }
}
