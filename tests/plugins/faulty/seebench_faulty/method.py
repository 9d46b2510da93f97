"""The faulty plugin's method (never reached: its option schema is invalid)."""


class Method:
    name = "faulty-method"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        raise NotImplementedError
