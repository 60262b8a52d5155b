#!/usr/bin/env bash
# The bundled comparators are what scripts/bundled-models makes of graphene's
# simulated measurements: running it again into a scratch directory gives
# model/models/loggps.xml and fluid.xml byte for byte (the provenance their
# comments state). And the fluid fit it bundles is relative to the
# measurement route (20 us, 125e6 B/s): there, fluid times the fitted line
# L_f + k / B_f, the values its comment records, to their 4 digits.
source "$(dirname "$0")/lib.sh"
W=$WORK
"$SOURCE_DIR/scripts/bundled-models" "$BUILD_DIR" "$W" 2>"$W/err"
st=$?
check_eq "bundled-models exits 0 ($(tail -n 2 "$W/err")): exit status" "$st" 0
for m in loggps fluid; do
  check "$m.xml is the fit, byte for byte ($(diff "$W/$m.xml" "$SOURCE_DIR/model/models/$m.xml" | head -4 | tr '\n' ' '))" \
    cmp -s "$W/$m.xml" "$SOURCE_DIR/model/models/$m.xml"
done
# lat-factor x 20 us + 16 / (bw-factor x 125e6) = L_f, bw-factor x 125e6 = B_f.
line=$(grep -o 'L = [^ ]* s, B = [^ ]* B/s' "$SOURCE_DIR/model/models/fluid.xml")
Lf=$(awk '{ print $3 }' <<<"$line") Bf=$(awk '{ print $7 }' <<<"$line")
FL=$(fluid_factor lat-factor) FB=$(fluid_factor bw-factor)
check_close "fluid: bw-factor x 125e6 = B_f" "$(calc "$FB * 125e6")" "$Bf" 1e-3
check_close "fluid: lat-factor x 20 us + 16 / B_f = L_f" "$(calc "$FL * 20e-6 + 16 / ($FB * 125e6)")" "$Lf" 1e-3
finish
