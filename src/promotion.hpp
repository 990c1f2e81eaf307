// NumPy 2's type promotion with NEP 50's weak Python scalars, and its refusal of Python
// integers a dtype cannot hold: the dtype rule ufuncs, where, clip and linspace share.
#pragma once

#include "intake.hpp"
#include "numcu/dtype.hpp"

namespace numcu::python {

// A dtype with NEP 50's weakness: Python scalars are "weak".
struct Typed {
  DType dtype;
  bool weak;
};

// NEP 50 over several operands: the arrays (strong) promote among themselves, as NumPy's
// result_type finds it, and the Python scalars (weak) then meet their result.
Typed promote_all(const Typed* t, int n);

// NumPy 2's result dtype of operands, Python scalars weak (NEP 50).
DType result_dtype(const Operand* const* operands, int count);

// NumPy 2 refuses a Python integer that an integer dtype cannot hold (OverflowError).
void check_weak_int(const Operand& x, DType dtype, const char* fname);

// Where a weak Python integer `x` lies against integer dtype `dtype`'s range: 0 inside it (or when
// either is not an integer), +1 above its largest value, -1 below its smallest.
int weak_int_side(const Operand& x, DType dtype);

// x (a weak Python integer) replaced by `dtype`'s largest value (side > 0), its smallest
// (side < 0), or 1 (side == 0).
void clamp_weak_int(Operand& x, DType dtype, int side);

}  // namespace numcu::python
