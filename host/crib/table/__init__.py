"""A game at the table: the engine any front end drives (TableEngine), the record it keeps
in the history, its reconciliation with the board, and the questions of each hand."""
