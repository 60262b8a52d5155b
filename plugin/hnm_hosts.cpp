/* hnm-hosts -- load a SimGrid platform the way smpirun will and list its hosts.
 *
 *   hnm-hosts PLATFORM
 *
 * Prints one summary line, "# hosts=H fatpipe=F limiters=L", followed by
 * " host-speed=VALUE" when the platform's <config> sets smpi/host-speed (the
 * speed of the machine running the simulation, as hnm-calibrate machine
 * records it), then the H hosts, one per line: the name, a tab, and the
 * host's speed in flop/s (per core, at its initial pstate). F counts the links other than loopbacks that SimGrid
 * shares as FATPIPE (never saturating), L the node limiter links (NAME_limiter
 * beside NAME_UP or NAME, the links hnm's models resize or lift: the rule of
 * hnm_simgrid.cpp). hnm-run runs it before smpirun (tools/hnm_check.h) so
 * that a platform SimGrid cannot load, and a hostfile naming hosts the
 * platform does not have, are refused with one line instead of a simulator
 * abort. Its own process, so that whatever SimGrid does with a bad platform
 * (an exception, caught here, or an abort) cannot take hnm-run with it.
 *
 *   hnm-hosts --remedies PLATFORM [--cfg=KEY:VALUE]...
 *
 * With libhnm.so preloaded and a model in $HNM_MODEL (hnm-run --explain
 * does both), loads PLATFORM with the given settings as smpirun will, so
 * that the plugin makes its start-up decisions, and prints them: whether
 * each remedy of SimGrid's (the Lazy mend, the detached-transfer list, the
 * window lockers) is on, and why (docs/simgrid-versions.md).
 *
 * Exit status (include/hnm/hnm_error.h, docs/reliability.md): 0 loaded;
 * 2 bad input: usage, a platform that is missing, not a regular file, or
 * that SimGrid refuses; 1 (with --remedies) libhnm.so is not loaded, and
 * standard output that could not be written (hnm_msg_init). Messages are
 * core/hnm_msg's, one line each: "hnm-hosts: REASON" (hnm-run takes REASON
 * into its own line).
 */
#include "hnm_error.h"
#include "hnm_linkrole.h"
#include "hnm_msg.h"
#include "hnm_platform_values.h"
#include "hnm_version.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/version.h>
#include <xbt/config.hpp>

#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

bool ends_with(const std::string& s, const char* suffix)
{
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/* SimGrid's loopback links (a cluster's NAME_loopback, a zone's
 * __loopback__) are FATPIPE but alone on same-host routes: they share nothing
 * with other links, so the lazy update has nothing to get wrong there. */
bool is_loopback(const std::string& name)
{
  return name == "__loopback__" || ends_with(name, "_loopback");
}

/* The naming rule is platforms/hnm_linkrole.h's. */
bool is_node_limiter(const std::unordered_set<std::string>& names, const std::string& name)
{
  size_t n = hnm_linkrole_limiter_base(name.c_str());
  for (const char* const* owner = hnm_linkrole_limiter_owner; n > 0 && *owner != nullptr; owner++)
    if (names.count(name.substr(0, n) + *owner) > 0)
      return true;
  return false;
}

/* --remedies: the decisions of the preloaded plugin (hnm_simgrid.cpp). */
int print_remedies()
{
  auto report = reinterpret_cast<const char* (*)()>(dlsym(RTLD_DEFAULT, "hnm_plugin_remedies"));
  if (report == nullptr) {
    hnm_msg_error("--remedies: libhnm.so is not loaded (LD_PRELOAD it, as hnm-run --explain does)");
    return 1;
  }
  int major = 0, minor = 0, patch = 0;
  sg_version_get(&major, &minor, &patch);
  std::printf("remedies of SimGrid %d.%d.%d (hnm built against %d.%d; docs/simgrid-versions.md):\n%s", major, minor,
              patch, SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, report());
  return 0;
}

} // namespace

int main(int argc, char** argv)
{
  /* Also checks standard output at exit: a write error is one line and
   * exit status 2. */
  hnm_msg_init("hnm-hosts");
  if (argc == 2 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    std::printf("Usage: hnm-hosts PLATFORM\n"
                "       hnm-hosts --remedies PLATFORM [--cfg=KEY:VALUE]...\n"
                "Load a SimGrid platform (XML or .so) and print '# hosts=H fatpipe=F limiters=L'\n"
                "[' host-speed=V' if its <config> sets smpi/host-speed], then its hosts, one per\n"
                "line: NAME<tab>SPEED (flop/s).\n"
                "  --remedies   with libhnm.so preloaded and $HNM_MODEL set (hnm-run --explain):\n"
                "               print which of the plugin's remedies of SimGrid are on, and why\n"
                "  -h, --help   this help\n"
                "  --version    print the version\n");
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("hnm-hosts %s\n", HNM_VERSION);
    return 0;
  }
  bool remedies = argc >= 3 && std::strcmp(argv[1], "--remedies") == 0;
  if (remedies) {
    argv++;
    argc--;
    for (int i = 2; i < argc; i++)
      if (std::strncmp(argv[i], "--cfg=", 6) != 0)
        return hnm_msg_error("%s: only --cfg=KEY:VALUE may follow the platform (see hnm-hosts --help)", argv[i]);
  }
  /* Bad usage: one line, as from every tool of the project. */
  if (argc >= 2 && argv[1][0] == '-')
    return hnm_msg_error("%s: unknown option (see hnm-hosts --help)", argv[1]);
  if (argc != 2 && not remedies)
    return hnm_msg_error("one platform file is needed (hnm-hosts PLATFORM; see --help)");
  /* SimGrid would block on a named pipe and read a device forever. */
  struct stat st;
  if (stat(argv[1], &st) != 0) {
    hnm_msg_error("%s: cannot open: %s", argv[1], std::strerror(errno));
    return HNM_EXIT_USAGE;
  }
  if (!S_ISREG(st.st_mode)) {
    hnm_msg_error("%s: not a regular file", argv[1]);
    return HNM_EXIT_USAGE;
  }
  /* What SimGrid would take (NaN, inf) or refuse without naming it. */
  char why[1024];
  if (hnm_platform_values_check(argv[1], why, sizeof why) != 0) {
    hnm_msg_error("%s", why);
    return HNM_EXIT_USAGE;
  }
  try {
    /* SimGrid's own messages off: the exception says why, in one line. */
    char log_thres[] = "--log=root.thres:critical";
    char log_loc[]   = "--log=no_loc";
    std::vector<char*> sg_argv = {argv[0], log_thres, log_loc};
    for (int i = 2; remedies && i < argc; i++)
      sg_argv.push_back(argv[i]);
    sg_argv.push_back(nullptr);
    int sg_argc = (int)sg_argv.size() - 1;
    simgrid::s4u::Engine engine(&sg_argc, sg_argv.data());
    engine.load_platform(argv[1]);
    if (remedies)
      return print_remedies();

    std::unordered_set<std::string> names;
    auto links = engine.get_all_links();
    for (const auto* link : links)
      names.insert(link->get_name());
    size_t fatpipe = 0, limiters = 0;
    for (const auto* link : links) {
      if (link->get_sharing_policy() == simgrid::s4u::Link::SharingPolicy::FATPIPE && !is_loopback(link->get_name()))
        fatpipe++;
      if (is_node_limiter(names, link->get_name()))
        limiters++;
    }
    /* A <config> block's smpi/host-speed: SMPI declares the flag in
     * libsimgrid, so it exists here too; a build without SMPI has none. */
    std::string host_speed;
    try {
      if (not simgrid::config::is_default("smpi/host-speed"))
        host_speed = simgrid::config::get_value<std::string>("smpi/host-speed");
    } catch (const std::exception&) {
      host_speed.clear();
    }
    auto hosts = engine.get_all_hosts();
    std::printf("# hosts=%zu fatpipe=%zu limiters=%zu", hosts.size(), fatpipe, limiters);
    if (not host_speed.empty() && host_speed.find_first_of(" \t\n") == std::string::npos)
      std::printf(" host-speed=%s", host_speed.c_str());
    std::printf("\n");
    for (const auto* host : hosts)
      std::printf("%s\t%.17g\n", host->get_cname(), host->get_speed());
    return 0;
  } catch (const std::exception& e) {
    std::string msg = e.what();
    msg             = msg.substr(0, msg.find('\n'));
    /* The attribute SimGrid's reason is about, when it does not say. */
    char line[2048];
    hnm_platform_values_explain(argv[1], msg.c_str(), line, sizeof line);
    hnm_msg_error("%s", *line ? line : "SimGrid cannot load it");
    return HNM_EXIT_USAGE;
  } catch (...) {
    hnm_msg_error("SimGrid cannot load it (unknown error)");
    return HNM_EXIT_USAGE;
  }
}
