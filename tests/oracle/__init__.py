"""A naive reference model of the rules spec, used only as a test oracle for the engine."""
