/* hnm_rma.h -- one-sided communication (MPI RMA) costs inside libhnm.so; a
 * C++ header of the glue (see hnm_rma.cpp, docs/models.md "One-sided
 * communication"). */
#ifndef HNM_RMA_H
#define HNM_RMA_H

#include "hnm_model.h"

/* Which of SMPI's cost callbacks asks (SmpiOperation's SEND, ISEND, RECV;
 * kept apart so that this header includes no SimGrid header). */
enum class HnmRmaCharge { SEND, ISEND, RECV };

/* Install the costs of a model's <rma> element (call once, when the
 * platform exists, before any actor runs). Checks that the RMA calls can be
 * recognised (SimGrid 3.32, libhnm.so ahead of SimGrid in the symbol
 * search: hnm-run preloads it); if not, prints one warning naming
 * MODEL_NAME and leaves RMA timed as SMPI does. Returns 1 if the costs
 * apply, 0 otherwise. */
int hnm_rma_install(const struct hnm_rma* costs, const char* model_name);

/* For SMPI's cost callbacks: if the calling actor is inside an MPI RMA call
 * (a put, get, accumulate or window synchronisation) and one-sided costs are
 * installed, store the overhead that operation OP of SIZE bytes costs there
 * in *cost (seconds) and return true; otherwise return false (the message is
 * point-to-point). O(1), no allocation. */
bool hnm_rma_cost(HnmRmaCharge op, double size, double* cost);

#endif
