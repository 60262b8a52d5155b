/* SimGrid network/optim:Lazy overloads a link: four flows start at once
 * from host A, two to B and two to C (platform.xml). Max-min gives each
 * 5 MB/s (LB and LC are shared by two flows each), so every 5 MB transfer
 * takes 20 ms of latency + 1 s. Build and run: see README.md. */
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>
#include <cstdio>

namespace sg4 = simgrid::s4u;

static void send_to(const char* dst)
{
  sg4::Comm::sendto(sg4::Host::by_name("A"), sg4::Host::by_name(dst), 5000000);
  std::printf("A -> %s done at %.9f s\n", dst, sg4::Engine::get_clock());
}

/* A link's current load, B/s: Link::get_load() since SimGrid 3.34 (up to
 * 4.1 and master), get_usage() before. */
static double load_of(const sg4::Link* link)
{
#if SIMGRID_VERSION >= 33400
  return link->get_load();
#else
  return link->get_usage();
#endif
}

/* At 0.5 s, while all four flows run: the load of each link. */
static void observe()
{
  sg4::this_actor::sleep_for(0.5);
  for (const char* name : {"LA", "LB", "LC"}) {
    const sg4::Link* link = sg4::Link::by_name(name);
    std::printf("at 0.5 s, link %s carries %.0f B/s of its %.0f B/s\n", name, load_of(link), link->get_bandwidth());
  }
}

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv);
  e.load_platform(argc > 1 ? argv[1] : "platform.xml");
  for (const char* dst : {"B", "B", "C", "C"})
    sg4::Actor::create("send", sg4::Host::by_name("A"), send_to, dst);
  sg4::Actor::create("observe", sg4::Host::by_name("B"), observe);
  e.run();
  return 0;
}
