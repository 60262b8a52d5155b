/* hnm-platform: the platform XML (core's XML writer, streamed) and the
 * hostfile, both through temporaries renamed at the end. */
#define _POSIX_C_SOURCE 200809L
#include "hnm_msg.h"
#include "hnm_quantity.h"
#include "hnm_topo.h"
#include "hnm_units.h"

#include "hnm_xml_writer.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "hnm_platform_write.h"
#include "hnm_out.h"
#include "hnm_platform_options.h"
#include "hnm_platform_config.h"

/* ---- XML ----------------------------------------------------------------- */

static int xml_attr(hnm_xml_writer *w, const char *name, const char *value)
{
  return hnm_xml_writer_attr(w, name, value);
}

static int xml_attr_ulong(hnm_xml_writer *w, const char *name, unsigned long value)
{
  char buf[32];

  snprintf(buf, sizeof buf, "%lu", value);
  return xml_attr(w, name, buf);
}

static int xml_attr_bw(hnm_xml_writer *w, const char *name, double bytes_per_second)
{
  char buf[64];

  if (hnm_quantity_format_bandwidth(bytes_per_second, buf, sizeof buf) != 0)
    return -1;
  return xml_attr(w, name, buf);
}

static int xml_attr_time(hnm_xml_writer *w, const char *name, double seconds)
{
  char buf[64];

  if (hnm_quantity_format_time(seconds, buf, sizeof buf) != 0)
    return -1;
  return xml_attr(w, name, buf);
}

static int xml_attr_radical(hnm_xml_writer *w, unsigned long first, unsigned long count)
{
  char buf[64];

  snprintf(buf, sizeof buf, "%lu-%lu", first, first + count - 1);
  return xml_attr(w, "radical", buf);
}

/* The attributes every <cluster> shares, after id, prefix, suffix, radical. */
static int xml_cluster_common(hnm_xml_writer *w, const struct plat_config *cfg)
{
  char speed[64];

  if (hnm_quantity_format_speed(cfg->speed, speed, sizeof speed) != 0 || xml_attr(w, "speed", speed) != 0)
    return -1;
  if (cfg->ranks_per_host > 1 && xml_attr_ulong(w, "core", cfg->ranks_per_host) != 0)
    return -1;
  if (xml_attr_bw(w, "bw", cfg->bw) != 0 || xml_attr_time(w, "lat", cfg->lat) != 0 ||
      xml_attr(w, "sharing_policy", cfg->splitduplex ? "SPLITDUPLEX" : "SHARED") != 0)
    return -1;
  return 0;
}

static int xml_limiter_and_loopback(hnm_xml_writer *w, const struct plat_config *cfg)
{
  if (cfg->limiter > 0 && xml_attr_bw(w, "limiter_link", cfg->limiter * cfg->bw) != 0)
    return -1;
  if (cfg->loopback &&
      (xml_attr_bw(w, "loopback_bw", cfg->loopback_bw) != 0 || xml_attr_time(w, "loopback_lat", cfg->loopback_lat) != 0))
    return -1;
  return 0;
}

static const char *topology_name(enum hnm_topo_family f)
{
  switch (f) {
    case HNM_TOPO_TORUS:
    case HNM_TOPO_BGQ:
      return "TORUS";
    case HNM_TOPO_FATTREE:
      return "FAT_TREE";
    case HNM_TOPO_DRAGONFLY:
      return "DRAGONFLY";
    default:
      return "FLAT";
  }
}

/* Append to buf (len bytes, *used of them taken); truncates silently. */
static void appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
  va_list ap;
  int w;

  if (*used >= len)
    return;
  va_start(ap, fmt);
  w = vsnprintf(buf + *used, len - *used, fmt, ap);
  va_end(ap);
  if (w > 0)
    *used = *used + (size_t)w < len ? *used + (size_t)w : len;
}

/* The comment at the top of the file: what was generated, and how hosts are
 * numbered. Never contains "--" (not allowed in an XML comment). */
static void describe_platform(const struct plat_config *cfg, char *buf, size_t len)
{
  const struct hnm_topo *t = &cfg->topo;
  char shape[256], params[512];
  size_t used = 0;
  unsigned long hosts = hnm_topo_hosts(t);

  hnm_topo_describe(t, shape, sizeof shape);
  hnm_topo_parameters(t, params, sizeof params);
  appendf(buf, len, &used, " hnm-platform %s%s%s: %s; %lu hosts node-0 .. node-%lu, %lu MPI rank%s each",
          cfg->fam->name, cfg->preset ? " preset " : "", cfg->preset ? cfg->preset->name : "", shape, hosts,
          hosts - 1, cfg->ranks_per_host, cfg->ranks_per_host == 1 ? "" : "s");
  switch (t->family) {
    case HNM_TOPO_CLUSTER:
      appendf(buf, len, &used,
              ".\n     Cabinet N is <cluster id=\"cabN\"> (router cabN-router, contiguous hosts); each node has"
              " up/down links\n     and a limiter cabN_link_I_limiter. A route between cabinets A and B crosses"
              " cabA-up,\n     cabA-limiter, cabB-limiter, cabB-down.");
      break;
    case HNM_TOPO_TORUS:
      appendf(buf, len, &used,
              ".\n     SimGrid TORUS %s: host node-i has coordinate k = (i / (d0 x .. x d(k-1))) mod dk;"
              "\n     dimension 0 varies fastest and is routed first.",
              params);
      break;
    case HNM_TOPO_BGQ: {
      int order[5];
      char formula[256];
      size_t f = 0;

      /* i = x0 + S0*(x1 + S1*(x2 + S2*(x3 + S3*x4))) */
      hnm_topo_bgq_order(t, order);
      for (int k = 0; k < 4; k++)
        appendf(formula, sizeof formula, &f, k < 3 ? "%c + %lu*(" : "%c + %lu*", "abcde"[order[k]],
                t->dims[order[k]]);
      appendf(formula, sizeof formula, &f, "%c)))", "abcde"[order[4]]);
      appendf(buf, len, &used,
              ".\n     topo_parameters %s = %c,%c,%c,%c,%c: BG/Q routes the longest dimension first, SimGrid routes"
              "\n     dimension 0 first. MPI rank r (ABCDE mapping, E fastest) is the node (a,b,c,d,e) with"
              "\n     r = (((a*%lu + b)*%lu + c)*%lu + d)*%lu + e, and runs on host node-i with"
              "\n     i = %s.",
              params, "ABCDE"[order[0]], "ABCDE"[order[1]], "ABCDE"[order[2]], "ABCDE"[order[3]],
              "ABCDE"[order[4]], t->dims[1], t->dims[2], t->dims[3], t->dims[4], formula);
      break;
    }
    case HNM_TOPO_FATTREE:
      appendf(buf, len, &used,
              ".\n     SimGrid FAT_TREE %s: %lu switches; host node-i hangs off leaf switch group i / %lu.", params,
              hnm_topo_switches(t), t->dims[0]);
      break;
    case HNM_TOPO_DRAGONFLY:
      appendf(buf, len, &used,
              ".\n     SimGrid DRAGONFLY %s: %lu routers; host node-i is on router i / %lu"
              " (group, chassis, router order).",
              params, hnm_topo_switches(t), t->nodes);
      break;
  }
  if (cfg->preset != NULL && cfg->preset->note != NULL)
    appendf(buf, len, &used, "\n     Preset note (at full size): %s.", cfg->preset->note);
  appendf(buf, len, &used, " ");
  /* Keep the invariant above whatever the texts become. */
  for (char *p = strstr(buf, "--"); p != NULL; p = strstr(p, "--"))
    p[1] = ' ';
}

static int xml_topology_cluster(hnm_xml_writer *w, const struct plat_config *cfg)
{
  char params[512];

  if (hnm_topo_parameters(&cfg->topo, params, sizeof params) != 0)
    return -1;
  if (hnm_xml_writer_start(w, "cluster") != 0 || xml_attr(w, "id", cfg->fam->name) != 0 ||
      xml_attr(w, "prefix", "node-") != 0 || xml_attr(w, "suffix", "") != 0 ||
      xml_attr_radical(w, 0, hnm_topo_hosts(&cfg->topo)) != 0 || xml_cluster_common(w, cfg) != 0 ||
      xml_attr(w, "topology", topology_name(cfg->topo.family)) != 0 || xml_attr(w, "topo_parameters", params) != 0 ||
      xml_limiter_and_loopback(w, cfg) != 0 || hnm_xml_writer_end(w) != 0)
    return -1;
  return 0;
}

/* The torus, fat tree or dragonfly cluster inside a zone of its own,
 * "NAME-root" (routing Full, nothing else in it). SimGrid 4.0 and 4.1 crash
 * on a <cluster topology=...> straight under <platform>: their XML parser
 * creates the topology zone on the enclosing zone, which is null there
 * (src/kernel/xml/sg_platf.cpp, sg_platf_new_cluster_hierarchical, since
 * upstream commit 02ee070ade). Inside a zone, every version builds the
 * same cluster with the same hosts, links and routes. */
static int xml_root_zone(hnm_xml_writer *w, const struct plat_config *cfg)
{
  char id[128];

  snprintf(id, sizeof id, "%s-root", cfg->fam->name);
  if (hnm_xml_writer_start(w, "zone") != 0 || xml_attr(w, "id", id) != 0 || xml_attr(w, "routing", "Full") != 0 ||
      xml_topology_cluster(w, cfg) != 0 || hnm_xml_writer_end(w) != 0)
    return -1;
  return 0;
}

static int xml_link(hnm_xml_writer *w, int cabinet, const char *kind, double bw, double lat, int fatpipe)
{
  char id[64];

  snprintf(id, sizeof id, "cab%d-%s", cabinet, kind);
  if (hnm_xml_writer_start(w, "link") != 0 || xml_attr(w, "id", id) != 0 ||
      xml_attr_bw(w, "bandwidth", bw) != 0 || xml_attr_time(w, "latency", lat) != 0 ||
      (fatpipe && xml_attr(w, "sharing_policy", "FATPIPE") != 0) || hnm_xml_writer_end(w) != 0)
    return -1;
  return 0;
}

static int xml_link_ctn(hnm_xml_writer *w, int cabinet, const char *kind)
{
  char id[64];

  snprintf(id, sizeof id, "cab%d-%s", cabinet, kind);
  if (hnm_xml_writer_start(w, "link_ctn") != 0 || xml_attr(w, "id", id) != 0 ||
      hnm_xml_writer_end(w) != 0)
    return -1;
  return 0;
}

/* One zoneRoute between a cabinet and the core zone, one way: up (cabinet
 * to core: cabN-up then cabN-limiter on the way) or down (core to cabinet:
 * cabN-limiter then cabN-down); the core's gateway is its router,
 * core-router. The links are written in reverse: SimGrid 3.32's
 * DijkstraZone::get_local_route prepends each hop's links one by one,
 * which reverses them, so this order gives the route order above. */
static int xml_core_route(hnm_xml_writer *w, const struct plat_config *cfg, int cabinet, int up)
{
  char zone[32], router[48];

  snprintf(zone, sizeof zone, "cab%d", cabinet);
  snprintf(router, sizeof router, "cab%d-router", cabinet);
  if (hnm_xml_writer_start(w, "zoneRoute") != 0 || xml_attr(w, "src", up ? zone : "core") != 0 ||
      xml_attr(w, "dst", up ? "core" : zone) != 0 || xml_attr(w, "gw_src", up ? router : "core-router") != 0 ||
      xml_attr(w, "gw_dst", up ? "core-router" : router) != 0 || xml_attr(w, "symmetrical", "NO") != 0 ||
      (!up && xml_link_ctn(w, cabinet, "down") != 0) ||
      (cfg->cab_limiter > 0 && xml_link_ctn(w, cabinet, "limiter") != 0) ||
      (up && xml_link_ctn(w, cabinet, "up") != 0) || hnm_xml_writer_end(w) != 0)
    return -1;
  return 0;
}

/* --cabinet-routes pairs: one zoneRoute per ordered pair of cabinets, in a
 * Full zone: C x (C-1) routes, streamed. */
static int xml_pair_routes(hnm_xml_writer *w, const struct plat_config *cfg)
{
  const struct hnm_topo *t = &cfg->topo;

  for (int a = 1; a <= t->cabinets; a++) {
    for (int b = 1; b <= t->cabinets; b++) {
      char src[32], dst[32], gw_src[48], gw_dst[48];
      if (a == b)
        continue;
      snprintf(src, sizeof src, "cab%d", a);
      snprintf(dst, sizeof dst, "cab%d", b);
      snprintf(gw_src, sizeof gw_src, "cab%d-router", a);
      snprintf(gw_dst, sizeof gw_dst, "cab%d-router", b);
      if (hnm_xml_writer_start(w, "zoneRoute") != 0 || xml_attr(w, "src", src) != 0 ||
          xml_attr(w, "dst", dst) != 0 || xml_attr(w, "gw_src", gw_src) != 0 || xml_attr(w, "gw_dst", gw_dst) != 0 ||
          xml_attr(w, "symmetrical", "NO") != 0 || xml_link_ctn(w, a, "up") != 0 ||
          (cfg->cab_limiter > 0 && (xml_link_ctn(w, a, "limiter") != 0 || xml_link_ctn(w, b, "limiter") != 0)) ||
          xml_link_ctn(w, b, "down") != 0 || hnm_xml_writer_end(w) != 0)
        return -1;
    }
  }
  return 0;
}

/* The cluster family: platforms/default.xml generalised. The route between
 * cabinets A and B is cabA-up, cabA-limiter, cabB-limiter, cabB-down, with
 * gateways cabA-router and cabB-router, written one of two ways:
 *   core (default): the cabinets and a core zone (one router, core-router,
 *     no link) sit in a DijkstraCache zone with 2 C zoneRoutes, each
 *     cabinet up to the core and the core down to each cabinet: linear in
 *     C. SimGrid joins the two halves (DijkstraZone::get_local_route:
 *     core-router is both the first half's gw_dst and the second's gw_src,
 *     so nothing is inserted between them) and caches one predecessor
 *     table per source cabinet. Its routes exist once the platform is
 *     sealed (when the simulation starts, or Engine::seal_platform()).
 *   pairs: a Full zone with one zoneRoute per ordered pair of cabinets,
 *     C x (C-1) of them, routes known as soon as the file is loaded.
 * tests/platforms/linear_routes.sh checks that both give the same routes,
 * link for link. */
static int xml_cabinets(hnm_xml_writer *w, const struct plat_config *cfg)
{
  const struct hnm_topo *t = &cfg->topo;
  unsigned long first = 0;
  char id[32], router[48];

  if (hnm_xml_writer_start(w, "zone") != 0 || xml_attr(w, "id", "world") != 0 ||
      xml_attr(w, "routing", cfg->cab_pairs ? "Full" : "DijkstraCache") != 0)
    return -1;
  for (int c = 1; c <= t->cabinets; c++) {
    snprintf(id, sizeof id, "cab%d", c);
    snprintf(router, sizeof router, "cab%d-router", c);
    if (hnm_xml_writer_start(w, "cluster") != 0 || xml_attr(w, "id", id) != 0 ||
        xml_attr(w, "prefix", "node-") != 0 || xml_attr(w, "suffix", "") != 0 ||
        xml_attr_radical(w, first, t->cabinet_nodes[c - 1]) != 0 || xml_cluster_common(w, cfg) != 0 ||
        xml_limiter_and_loopback(w, cfg) != 0 || xml_attr(w, "router_id", router) != 0 ||
        hnm_xml_writer_end(w) != 0)
      return -1;
    first += t->cabinet_nodes[c - 1];
  }
  if (!cfg->cab_pairs &&
      (hnm_xml_writer_start(w, "zone") != 0 || xml_attr(w, "id", "core") != 0 ||
       xml_attr(w, "routing", "Full") != 0 || hnm_xml_writer_start(w, "router") != 0 ||
       xml_attr(w, "id", "core-router") != 0 || hnm_xml_writer_end(w) != 0 || hnm_xml_writer_end(w) != 0))
    return -1;
  for (int c = 1; c <= t->cabinets; c++) {
    if (xml_link(w, c, "up", cfg->cab_bw, cfg->cab_lat, cfg->cab_fatpipe) != 0 ||
        xml_link(w, c, "down", cfg->cab_bw, cfg->cab_lat, cfg->cab_fatpipe) != 0 ||
        (cfg->cab_limiter > 0 && xml_link(w, c, "limiter", cfg->cab_limiter, 0, cfg->cab_fatpipe) != 0))
      return -1;
  }
  if (cfg->cab_pairs) {
    if (xml_pair_routes(w, cfg) != 0)
      return -1;
  } else {
    for (int c = 1; c <= t->cabinets; c++)
      if (xml_core_route(w, cfg, c, 1) != 0 || xml_core_route(w, cfg, c, 0) != 0)
        return -1;
  }
  return hnm_xml_writer_end(w) != 0 ? -1 : 0;
}

static int write_xml(FILE *fp, const struct plat_config *cfg)
{
  hnm_xml_writer *w = hnm_xml_writer_new(fp, 1);
  char comment[4096];
  int rc = -1;

  if (w == NULL)
    return -1;
  describe_platform(cfg, comment, sizeof comment);
  if (hnm_xml_writer_raw(w, "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n") != 0 ||
      hnm_xml_writer_comment(w, comment) != 0 || hnm_xml_writer_start(w, "platform") != 0 ||
      xml_attr(w, "version", "4.1") != 0)
    goto err;
  if (cfg->topo.family == HNM_TOPO_CLUSTER ? xml_cabinets(w, cfg) != 0 : xml_root_zone(w, cfg) != 0)
    goto err;
  if (hnm_xml_writer_end(w) != 0)
    goto err;
  rc = 0;
err:
  if (hnm_xml_writer_finish(w) != 0)
    rc = -1;
  return rc;
}

/* ---- Hostfile ------------------------------------------------------------ */

static int emit_host(unsigned long host, void *ctx)
{
  return fprintf((FILE *)ctx, "node-%lu\n", host) < 0 ? -1 : 0;
}

static int write_hostfile(FILE *fp, const struct plat_config *cfg)
{
  return hnm_topo_place(&cfg->topo, cfg->placement, cfg->ranks_per_host, emit_host, fp);
}

/* A routed platform: the description hnm's platform library reads
 * (platforms/hnm_routing.h); hnm-run recognises it by its first line. */
static int write_description(FILE *fp, const struct plat_config *cfg)
{
  const struct hnm_rnet_desc d = {
      .topo = cfg->topo, .routing = cfg->routing, .seed = cfg->routing_seed, .ugal_threshold = cfg->ugal_threshold,
      .bw = cfg->bw, .lat = cfg->lat, .splitduplex = cfg->splitduplex, .loopback = cfg->loopback,
      .loopback_bw = cfg->loopback_bw, .loopback_lat = cfg->loopback_lat, .speed = cfg->speed,
      .cores = cfg->ranks_per_host};
  char shape[512], comment[1024];

  hnm_topo_describe(&cfg->topo, shape, sizeof shape);
  snprintf(comment, sizeof comment,
           "%s %s --routing %s: %s; %lu hosts node-0 .. node-%lu.\n"
           "Not a SimGrid XML file: run it with hnm-run -platform FILE (which loads it through\n"
           "hnm's platform library, libhnmplatform.so); see docs/platforms.md, \"Routing\".",
           PROG, cfg->fam->name, hnm_routing_name(cfg->routing), shape, hnm_topo_hosts(&cfg->topo),
           hnm_topo_hosts(&cfg->topo) - 1);
  return hnm_rnet_desc_write(fp, &d, comment);
}

/* Both files are written to temporaries (or through, for devices), both
 * are finished (flushed, fsync'ed) and only then renamed: a failure leaves
 * the user's existing files as they were and removes only our temporaries.
 * An output that cannot be created is bad input (HNM_EXIT_USAGE, found
 * before any work); a write that fails later is failed work
 * (HNM_EXIT_FAILURE). Either way err holds the one line. */
int plat_generate(const struct plat_config *cfg, char *err, size_t errlen)
{
  hnm_out *xml, *hosts = NULL;
  int to_file = cfg->output != NULL && strcmp(cfg->output, "-") != 0;

  xml = hnm_out_open(cfg->output, "-o", err, errlen);
  if (xml == NULL)
    return HNM_EXIT_USAGE;
  if (cfg->hostfile != NULL && (hosts = hnm_out_open(cfg->hostfile, "--hostfile", err, errlen)) == NULL) {
    hnm_out_abort(xml);
    return HNM_EXIT_USAGE;
  }
  errno = 0;
  if ((hnm_routing_is_builtin(cfg->routing) ? write_xml(hnm_out_file(xml), cfg)
                                            : write_description(hnm_out_file(xml), cfg)) != 0) {
    /* No errno: a value without a spelling (not finite), which the
     * ranges of plat_build_config() rule out; said, not a bare error. */
    hnm_errf(err, errlen, "%s%s%s: write error: %s", to_file ? "-o: '" : "standard output", to_file ? cfg->output : "",
             to_file ? "'" : "", errno ? strerror(errno) : "a value has no finite spelling (docs/platforms.md, Ranges)");
    goto err;
  }
  if (hosts != NULL && write_hostfile(hnm_out_file(hosts), cfg) != 0) {
    hnm_errf(err, errlen, "--hostfile: '%s': write error: %s", cfg->hostfile, strerror(errno));
    goto err;
  }
  if (hnm_out_finish(xml, err, errlen) != 0 || (hosts != NULL && hnm_out_finish(hosts, err, errlen) != 0))
    goto err;
  if (hosts != NULL && hnm_out_commit(hosts, err, errlen) != 0) {
    hosts = NULL;
    goto err;
  }
  hosts = NULL;
  if (hnm_out_commit(xml, err, errlen) != 0)
    return HNM_EXIT_FAILURE;
  return HNM_EXIT_OK;
err:
  hnm_out_abort(hosts);
  hnm_out_abort(xml);
  return HNM_EXIT_FAILURE;
}
