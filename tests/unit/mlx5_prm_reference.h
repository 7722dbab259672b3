/* What tests/unit/mlx5_prm_reference.c exports (from the kernel's mlx5_ifc.h) to the C++ test. */
#ifndef GIO_TESTS_MLX5_PRM_REFERENCE_H
#define GIO_TESTS_MLX5_PRM_REFERENCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* "<command>.<member path>": bit offset from the start of the command buffer, width in bits. */
struct gio_ifc_field {
  const char* name;
  unsigned bit;
  unsigned bits;
};

/* "sizeof.<structure>" in bits, or a kernel enumerator by its name. */
struct gio_ifc_value {
  const char* name;
  unsigned long long value;
};

extern const struct gio_ifc_field gio_ifc_fields[];
extern const unsigned gio_ifc_field_count;
extern const struct gio_ifc_value gio_ifc_values[];
extern const unsigned gio_ifc_value_count;

#ifdef __cplusplus
}
#endif

#endif
