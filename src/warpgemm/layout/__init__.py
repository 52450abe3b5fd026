"""CuTe-style layouts in pure Python: the algebra, swizzles, MMA/ldmatrix atoms, TiledMMA and
TiledCopy, a shared-memory bank model, and drawings.

Layouts print in CuTe's notation, ``shape:stride``::

    >>> from warpgemm.layout import make_layout, logical_divide
    >>> print(logical_divide(make_layout((8, 4), (4, 1)), (2, 2)))
    ((2,4),(2,2)):((4,8),(1,2))

Nothing here needs a GPU, torch or CUDA.
"""

from .inttuple import _, IntTuple
from .layout import Layout, make_layout, size, cosize, rank, depth, shape, stride
from .algebra import (
    coalesce, filter_zeros, filter_layout, composition, complement, right_inverse, left_inverse,
    logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product, zipped_product,
    tiled_product, blocked_product, raked_product, upcast, downcast, recast, make_ordered_layout,
    make_fragment_like,
)
from .swizzle import Swizzle, ComposedLayout, make_swizzled_layout
from .atoms import (
    MMAAtom, CopyAtom, mma_atom, copy_atom, MMA_ATOMS, COPY_ATOMS, ldmatrix_lane_rows,
    ldmatrix_lane_map,
)
from .tiled import (
    TiledMMA, ThrMMA, TiledCopy, ThrCopy, make_tiled_mma, make_tiled_copy_A, make_tiled_copy_B,
    make_tiled_copy_C,
)
from .banks import (
    BankReport, bank_conflicts, ldmatrix_addresses, ldmatrix_report, vector_access_report,
    smem_tile, transposed_store_report,
)

__all__ = [
    "_", "IntTuple", "Layout", "make_layout", "size", "cosize", "rank", "depth", "shape", "stride",
    "coalesce", "filter_zeros", "filter_layout", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "blocked_product", "raked_product",
    "upcast", "downcast", "recast", "make_ordered_layout", "make_fragment_like",
    "Swizzle", "ComposedLayout", "make_swizzled_layout",
    "MMAAtom", "CopyAtom", "mma_atom", "copy_atom", "MMA_ATOMS", "COPY_ATOMS",
    "ldmatrix_lane_rows", "ldmatrix_lane_map",
    "TiledMMA", "ThrMMA", "TiledCopy", "ThrCopy", "make_tiled_mma", "make_tiled_copy_A",
    "make_tiled_copy_B", "make_tiled_copy_C",
    "BankReport", "bank_conflicts", "ldmatrix_addresses", "ldmatrix_report",
    "vector_access_report", "smem_tile", "transposed_store_report",
]
