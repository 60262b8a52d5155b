/* hnm_log.hpp -- how the plugin's messages look in SimGrid's logging.
 *
 * The plugin prints through XBT categories, so that --log=CATEGORY.thres:...
 * silences or raises them and --help-logs lists them (SimGrid's own plugins
 * do the same):
 *   hnm           libhnm.so: notes (info), warnings (warning), the installed
 *                 model with hnm/verbose (info), fatal errors (critical, then
 *                 exit status 2);
 *   hnm_trace     one line per LogGPS message and per derived-datatype pack
 *                 (verbose: --log=hnm_trace.thres:verbose, or HNM_VERBOSE=2);
 *   hnm_linkload  the per-link load recorder of hnm-run --link-load;
 *   hnm_routed    libhnmplatform.so, the routed platforms (fatal errors).
 * The subcategories print through their parent. Lines keep the form hnm's
 * users and tests read, "hnm: MESSAGE" (a warning's MESSAGE starting with
 * "warning: ", a note's with "note: "), instead of SimGrid's default
 * "[time] [category/PRIORITY]" prefix, and a top category's threshold is
 * info of its own rather than root's: the --log=root.thres:warning that
 * quiets SimGrid's chatter does not hide hnm's notes and warnings, which
 * only --log=hnm.thres:... silences. hnm_log_setup() does both when the
 * library loads, before SimGrid reads the command line, so --log settings
 * of the category given there still win. */
#ifndef HNM_LOG_HPP
#define HNM_LOG_HPP

#include <xbt/log.h>

#include <cstdio>
#include <cstdlib>
#include <string>

inline void hnm_log_setup(xbt_log_category_t cat)
{
  xbt_log_layout_set(cat, xbt_log_layout_format_new("hnm: %m%n"));
  xbt_log_threshold_set(cat, xbt_log_priority_info);
}

/* A fatal error of the plugin: MSG as one line at critical in CAT (no
 * threshold short of off hides it), then exit status 2. Settings are
 * checked when SimGrid reads them, before anything is simulated. */
[[noreturn]] inline void hnm_log_fatal(xbt_log_category_t cat, const std::string& msg)
{
  XBT_CLOG(*cat, xbt_log_priority_critical, "%s", msg.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

#endif
