/* hnm_pack.h -- charging derived-datatype pack/unpack time inside SMPI
 * (hnm_pack.cpp, part of libhnm.so; C++ glue, not part of the model API).
 *
 * hnm_pack_install() is called once the model is loaded; from then on the
 * MPI calls of the simulated program that pack or unpack a derived
 * datatype sleep the model's pack time (hnm_model_pack_time()). A model
 * without pack costs (or with use="none") leaves every call untouched.
 */
#ifndef HNM_PACK_H
#define HNM_PACK_H

#include "hnm_model.h"

/* M stays owned by the caller and must outlive the simulation. trace: one
 * line per charged call on stderr (HNM_VERBOSE=2). */
void hnm_pack_install(const hnm_model* m, bool trace);

#endif
