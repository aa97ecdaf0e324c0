"""The phone companion (`crib serve`): the table engine behind a small web page that every
player opens on their own phone (crib.web.hub runs the engine, crib.web.app serves it)."""
