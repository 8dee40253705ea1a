"""The LLM-judge tier (MEMERAG-style prompts, a budgeted client, the lite-to-judge cascade)."""
