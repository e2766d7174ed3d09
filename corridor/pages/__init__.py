"""What people see: the comparison page at `/`, and the documentation (Swagger UI and the reference)."""
