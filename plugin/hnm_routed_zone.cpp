/* hnm_routed_zone.cpp -- libhnmplatform.so, the platform library of routed
 * platforms (hnm-platform --routing, docs/platforms.md "Routing").
 *
 * SimGrid loads a platform from a shared library when -platform names a .so
 * (EngineImpl::load_platform dlopens it and calls load_platform()). hnm-run
 * passes this library when the -platform file is an hnm routed-platform
 * description, and names the description in $HNM_ROUTED_PLATFORM.
 *
 * load_platform() reads the description with the C module
 * (platforms/hnm_routing.h), creates one zone holding every host and link
 * the module lays out, and fires Engine::on_platform_created as SimGrid's XML
 * parser does at </platform>. The zone's get_local_route(), which SimGrid
 * calls for every communication, asks the C module for the route's link
 * indices: O(route length), no allocation.
 *
 * UGAL needs the flows in progress on a link. SimGrid 3.32 has no public
 * count of them, so the zone keeps one: +1 on every link of every route it
 * hands out (one per network action, two with network/crosstraffic: the
 * forward and the backward route), -1 on the links of an action when SimGrid
 * reports it finished or failed (Link::on_communication_state_change and
 * NetworkAction::get_links(), a function libsimgrid 3.32 exports but whose
 * header it does not install: hnm_simgrid_internals.hpp). Forward and backward routes
 * use disjoint directed links with SPLITDUPLEX, so the counts are exact;
 * hnm-platform refuses ugal with SHARED links.
 *
 * Errors (a bad description) end the simulation with exit status 2 and one
 * line naming the file, line and field, before any simulated time runs.
 */
#include "hnm_log.hpp"
#include "hnm_routing.h"
#include "hnm_simgrid_internals.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>
#include <xbt/log.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>


/* libhnmplatform.so's category (plugin/hnm_log.hpp); loaded without libhnm.so too. */
XBT_LOG_NEW_DEFAULT_CATEGORY(hnm_routed, "hnm: routed platforms (libhnmplatform.so)");
namespace sg4 = simgrid::s4u;
namespace kr  = simgrid::kernel::routing;
namespace kres = simgrid::kernel::resource;

namespace {

[[noreturn]] void die(const std::string& msg)
{
  XBT_CRITICAL("%s", msg.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

class RoutedZone : public kr::NetZoneImpl {
  hnm_rnet* net_;
  std::vector<sg4::Link*> links_;       /* by link index (nullptr: unused index) */
  std::vector<size_t> route_;            /* scratch buffer of hnm_rnet_max_route() indices */
  bool count_flows_;
  std::vector<double> flows_;            /* flows in progress, by canonical index */
  std::unordered_map<const kres::StandardLinkImpl*, size_t> index_of_;

  static double flows_on(size_t link, void* self)
  {
    auto* z = static_cast<RoutedZone*>(self);
    return z->flows_[z->canonical_[link]];
  }
  std::vector<size_t> canonical_;

public:
  RoutedZone(const std::string& name, hnm_rnet* net) : NetZoneImpl(name), net_(net)
  {
    route_.resize((size_t)hnm_rnet_max_route(net));
    count_flows_ = hnm_rnet_get_desc(net)->routing == HNM_ROUTING_UGAL;
  }
  ~RoutedZone() override { hnm_rnet_free(net_); }

  void build()
  {
    const hnm_rnet_desc* d = hnm_rnet_get_desc(net_);
    size_t n               = hnm_rnet_link_count(net_);
    links_.assign(n, nullptr);
    canonical_.assign(n, 0);
    if (count_flows_)
      flows_.assign(n, 0.0);
    /* Creation order of SimGrid's own zones (hosts, then each host's links)
     * where it matters: the torus, whose dor routes must be bit-identical. */
    unsigned long hosts = hnm_rnet_hosts(net_);
    std::vector<bool> done(n, false);
    auto create         = [this, &done](size_t i) {
      struct hnm_rnet_link info;
      hnm_rnet_link_info(net_, i, &info);
      if (info.role == HNM_LINK_NONE || done[i])
        return;
      done[i]       = true;
      canonical_[i] = info.canonical;
      if (info.canonical != i) {
        if (links_[info.canonical] == nullptr) {
          struct hnm_rnet_link other;
          hnm_rnet_link_info(net_, info.canonical, &other);
          links_[info.canonical] = get_iface()->create_link(other.name, other.bw)->set_latency(other.lat)->seal();
          canonical_[info.canonical] = info.canonical;
          done[info.canonical]       = true;
        }
        links_[i] = links_[info.canonical];
        return;
      }
      sg4::Link* l = get_iface()->create_link(info.name, info.bw)->set_latency(info.lat);
      if (info.fatpipe)
        l->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      links_[i] = l->seal();
    };
    bool torus = d->topo.family == HNM_TOPO_TORUS;
    size_t per_host = torus ? 2 * (size_t)d->topo.ndims : 0;
    for (unsigned long h = 0; h < hosts; h++) {
      get_iface()
          ->create_host("node-" + std::to_string(h), d->speed)
          ->set_core_count((int)d->cores)
          ->seal();
      if (d->loopback)
        create(hnm_rnet_loopback(net_, h));
      if (torus)
        for (size_t j = 0; j < per_host; j++)
          create(h * per_host + j);
    }
    for (size_t i = 0; i < n; i++)
      create(i);
    if (count_flows_) {
      for (size_t i = 0; i < n; i++)
        if (links_[i] != nullptr && canonical_[i] == i)
          index_of_[links_[i]->get_impl()] = i;
      sg4::Link::on_communication_state_change_cb([this](kres::NetworkAction& a, kres::Action::State previous) {
        bool was_over = previous == kres::Action::State::FINISHED || previous == kres::Action::State::FAILED;
        kres::Action::State now = a.get_state();
        if (was_over || (now != kres::Action::State::FINISHED && now != kres::Action::State::FAILED))
          return;
        for (const kres::StandardLinkImpl* l : a.NetworkAction::get_links()) {
          auto it = index_of_.find(l);
          if (it != index_of_.end() && flows_[it->second] > 0)
            flows_[it->second] -= 1;
        }
      });
    }
  }

  void get_local_route(const kr::NetPoint* src, const kr::NetPoint* dst, kr::Route* into, double* latency) override
  {
    if (src->is_router() || dst->is_router())
      return;
    int m = hnm_rnet_route(net_, src->id(), dst->id(), route_.data(), count_flows_ ? flows_on : nullptr, this);
    for (int i = 0; i < m; i++) {
      sg4::Link* l = links_[route_[i]];
      into->link_list_.push_back(l->get_impl());
      if (latency != nullptr)
        *latency += l->get_latency();
      if (count_flows_)
        flows_[canonical_[route_[i]]] += 1;
    }
  }
};

} // namespace

extern "C" void load_platform(const sg4::Engine& /*engine*/)
{
  hnm_log_setup(&_XBT_LOGV(hnm_routed));
  const char* path = std::getenv("HNM_ROUTED_PLATFORM");
  if (path == nullptr || *path == '\0')
    die("libhnmplatform.so is the platform but HNM_ROUTED_PLATFORM is not set; run through hnm-run -platform "
        "DESCRIPTION");
  hnm_rnet_desc d;
  char err[1024];
  if (hnm_rnet_desc_read(path, &d, err, sizeof err) != 0)
    die(err);
  hnm_rnet* net = hnm_rnet_new(&d, err, sizeof err);
  if (net == nullptr)
    die(std::string(path) + ": " + err);
  try {
    auto* zone = new RoutedZone(d.topo.family == HNM_TOPO_DRAGONFLY ? "dragonfly"
                                : d.topo.family == HNM_TOPO_FATTREE ? "fattree"
                                                                     : "torus",
                                net);
    zone->build();
    zone->seal();
    sg4::Engine::on_platform_created();
  } catch (const std::exception& e) {
    die(std::string("cannot build the routed platform ") + path + ": " + e.what());
  } catch (...) {
    die(std::string("cannot build the routed platform ") + path);
  }
}
