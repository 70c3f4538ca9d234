"""Hugging Face packaging of MIRA-Math and Elenchos: builder, Parquet export, verify, publish."""
