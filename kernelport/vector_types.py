"""CUDA's vector types (uchar4, float3, double4, ...) as the inputs see them: a buffer of n of
them is n * lanes scalars of the base type, laid out x, y, z, w (the emulator's ctype.vector_row
reads them the same way).  Sizes are CUDA's: a 3-vector has no padding (float3 is 12 bytes)."""
from __future__ import annotations

# CUDA's short base names -> the C scalar type kernelport.inputs.DTYPES and cexpr.SIZEOF know
BASES = {"char": "char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
         "int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long",
         "longlong": "long long", "ulonglong": "unsigned long long", "float": "float", "double": "double"}
SCALAR_BYTES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "long": 8, "ulong": 8,
                "longlong": 8, "ulonglong": 8, "float": 4, "double": 8}

# name -> (scalar C type, lanes): char1 ... double4
VECTORS = {f"{b}{n}": (c, n) for b, c in BASES.items() for n in (1, 2, 3, 4)}
SIZES = {f"{b}{n}": SCALAR_BYTES[b] * n for b in BASES for n in (1, 2, 3, 4)}
