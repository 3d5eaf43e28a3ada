"""The memory for other assistants: an MCP server over stdio (mcp.py) and an Ollama-compatible proxy that
adds the memory to every chat request (proxy.py). Both take each message through the brain's memory path."""
