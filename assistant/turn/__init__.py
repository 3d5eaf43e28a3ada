"""One turn: the brain (brain.py) hears a message, remembers, recalls, builds the prompt (prompt.py), asks the
model (with tools.py) or answers a memory command itself (commands.py); a session's end writes its summary
(summary.py) and lets the model propose facts the rules missed (consolidation.py)."""
