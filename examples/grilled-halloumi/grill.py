"""The example's `grill` written in Python (`cookingbot.Model.add_primitive`): every content of
the container that has a `grilled` slot becomes grilled; done the given minutes after the
container is ready, the kitchen 30 s after that. The Python tests and
scripts/python_primitive_cost.py both use it, so they measure the same code."""


def grill(call):
    ready = call.ready_at("thing-to-grill")
    done = ready + call.number("time-to-grill-quantity") * 60
    pan = call.inputs["thing-to-grill"]
    for item in pan["contents"] or []:
        if "grilled" in item:
            item["grilled"] = True
    return {
        "outputs": {"thing-grilled": pan},
        "ready_at": {"thing-grilled": done},
        "kitchen_time": ready + 30,
    }
