"""The phone page's request edge, one for both servers: the HTTP rules (rules), the
requests' bodies, seats and answers (edge), the fan-out of states to screens (screens)."""
