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
 * UGAL needs each link's backlog: the bytes of the messages routed through
 * it that it has not yet sent (hnm_rnet_backlog, a fluid queue per link).
 * A zone learns the route when it hands it out, but SimGrid 3.32 tells it
 * nothing of the message's size; libhnm.so does know it when it prices the
 * message, once per communication, with the forward route (with
 * network/crosstraffic SimGrid also asks for the backward route, which
 * carries no backlog). So the zone registers an observer with libhnm.so
 * (plugin/hnm_route_observer.h, found with dlsym as the library is
 * preloaded) that adds the message's bytes to its route's links. Without
 * libhnm.so (a bare smpirun) UGAL sees an idle network and routes minimally;
 * the zone says so once.
 *
 * Errors (a bad description) end the simulation with exit status 2 and one
 * line naming the file, line and field, before any simulated time runs.
 */
#include "hnm_log.hpp"
#include "hnm_route_observer.h"
#include "hnm_routing.h"
#include "hnm_simgrid_version.hpp"

#include <dlfcn.h>
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
#include <new>
#include <string>
#include <unordered_map>
#include <vector>


/* libhnmplatform.so's category (plugin/hnm_log.hpp); loaded without libhnm.so too. */
XBT_LOG_NEW_DEFAULT_CATEGORY(hnm_routed, "hnm: routed platforms (libhnmplatform.so)");
namespace sg4 = simgrid::s4u;
namespace kr  = simgrid::kernel::routing;

namespace {

class RoutedZone : public kr::NetZoneImpl {
  hnm_rnet* net_;
  std::vector<sg4::Link*> links_;        /* by link index (nullptr: unused index) */
  std::vector<size_t> route_;            /* scratch buffer of hnm_rnet_max_route() indices */
  std::vector<size_t> observed_;         /* scratch: the indices of an observed route */
  hnm_rnet_backlog* backlog_ = nullptr;  /* UGAL only */
  std::unordered_map<const sg4::Link*, size_t> index_of_;
  std::vector<size_t> canonical_;

  static double backlog_of(size_t link, void* self)
  {
    auto* z = static_cast<RoutedZone*>(self);
    return hnm_rnet_backlog_seconds(z->backlog_, link, sg4::Engine::get_clock());
  }
  /* libhnm.so prices a message of bytes on links: its backlog. */
  static void observe(void* self, double bytes, void* const* links, size_t count)
  {
    auto* z = static_cast<RoutedZone*>(self);
    z->observed_.clear();
    for (size_t i = 0; i < count; i++) {
      auto it = z->index_of_.find(static_cast<const sg4::Link*>(links[i]));
      if (it != z->index_of_.end())
        z->observed_.push_back(it->second);
    }
    hnm_rnet_backlog_add(z->backlog_, z->observed_.data(), (int)z->observed_.size(), bytes,
                         sg4::Engine::get_clock());
  }

public:
  RoutedZone(const std::string& name, hnm_rnet* net) : NetZoneImpl(name), net_(net)
  {
    route_.resize((size_t)hnm_rnet_max_route(net));
  }
  ~RoutedZone() override
  {
    hnm_rnet_backlog_free(backlog_);
    hnm_rnet_free(net_);
  }

  void build()
  {
    const hnm_rnet_desc* d = hnm_rnet_get_desc(net_);
    size_t n               = hnm_rnet_link_count(net_);
    links_.assign(n, nullptr);
    canonical_.assign(n, 0);
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
          links_[info.canonical] = hnm_sg_add_link(get_iface(), other.name, other.bw)->set_latency(other.lat)->seal();
          canonical_[info.canonical] = info.canonical;
          done[info.canonical]       = true;
        }
        links_[i] = links_[info.canonical];
        return;
      }
      sg4::Link* l = hnm_sg_add_link(get_iface(), info.name, info.bw)->set_latency(info.lat);
      if (info.fatpipe)
        l->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
      links_[i] = l->seal();
    };
    bool torus = d->topo.family == HNM_TOPO_TORUS;
    size_t per_host = torus ? 2 * (size_t)d->topo.ndims : 0;
    for (unsigned long h = 0; h < hosts; h++) {
      hnm_sg_add_host(get_iface(), "node-" + std::to_string(h), d->speed)->set_core_count((int)d->cores)->seal();
      if (d->loopback)
        create(hnm_rnet_loopback(net_, h));
      if (torus)
        for (size_t j = 0; j < per_host; j++)
          create(h * per_host + j);
    }
    for (size_t i = 0; i < n; i++)
      create(i);
    enum hnm_routing r = d->routing;
    if (r == HNM_ROUTING_UGAL_L || r == HNM_ROUTING_UGAL_G) {
      backlog_ = hnm_rnet_backlog_new(net_);
      if (backlog_ == nullptr)
        throw std::bad_alloc();
      for (size_t i = 0; i < n; i++)
        if (links_[i] != nullptr && canonical_[i] == i)
          index_of_[links_[i]] = i;
      auto set = reinterpret_cast<void (*)(hnm_route_observer_fn, void*)>(dlsym(RTLD_DEFAULT, HNM_ROUTE_OBSERVER_SET));
      if (set != nullptr)
        set(observe, this);
      else
        XBT_WARN("warning: %s without libhnm.so (not run through hnm-run): no message sizes, so "
                             "every route is minimal", hnm_routing_name(r));
    }
  }

  void get_local_route(const kr::NetPoint* src, const kr::NetPoint* dst, kr::Route* into, double* latency) override
  {
    if (src->is_router() || dst->is_router())
      return;
    int m = hnm_rnet_route(net_, src->id(), dst->id(), route_.data(), backlog_ != nullptr ? backlog_of : nullptr,
                           this);
    for (int i = 0; i < m; i++) {
      sg4::Link* l = links_[route_[i]];
      into->link_list_.push_back(l->get_impl());
      if (latency != nullptr)
        *latency += l->get_latency();
    }
  }
};

} // namespace

extern "C" void load_platform(const sg4::Engine& /*engine*/)
{
  hnm_log_setup(&_XBT_LOGV(hnm_routed));
  const char* path = std::getenv("HNM_ROUTED_PLATFORM");
  if (path == nullptr || *path == '\0')
    hnm_log_fatal(&_XBT_LOGV(hnm_routed),
                  "libhnmplatform.so is the platform but HNM_ROUTED_PLATFORM is not set; run through hnm-run -platform "
                  "DESCRIPTION");
  hnm_rnet_desc d;
  char err[1024];
  if (hnm_rnet_desc_read(path, &d, err, sizeof err) != 0)
    hnm_log_fatal(&_XBT_LOGV(hnm_routed), err);
  hnm_rnet* net = hnm_rnet_new(&d, err, sizeof err);
  if (net == nullptr)
    hnm_log_fatal(&_XBT_LOGV(hnm_routed), std::string(path) + ": " + err);
  try {
    auto* zone = new RoutedZone(d.topo.family == HNM_TOPO_DRAGONFLY ? "dragonfly"
                                : d.topo.family == HNM_TOPO_FATTREE ? "fattree"
                                                                     : "torus",
                                net);
    hnm_sg_attach_zone(zone);
    zone->build();
    zone->seal();
    sg4::Engine::on_platform_created();
  } catch (const std::exception& e) {
    hnm_log_fatal(&_XBT_LOGV(hnm_routed),
                  std::string("cannot build the routed platform ") + path + ": " + e.what());
  } catch (...) {
    hnm_log_fatal(&_XBT_LOGV(hnm_routed), std::string("cannot build the routed platform ") + path);
  }
}
