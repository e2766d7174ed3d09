"""The pure domain: the data model, the pricing formulas and the catalog. No Flask, no I/O."""
