"""Whole-process timings of the gym: env build (first in a process, then another), reset,
step, clone and replay, on the largest gold network (croutons-vinegar-salad, 53 actions)."""
import statistics, sys, tempfile, time
from pathlib import Path
t0 = time.perf_counter()
import cookingbot
from cookingbot.gym import KitchenEnv
import gymnasium
t_import = time.perf_counter() - t0

def ms(f, n):
    out = []
    for _ in range(n):
        a = time.perf_counter(); f(); out.append((time.perf_counter() - a) * 1000)
    return statistics.median(out)

recipe = "croutons-vinegar-salad"
a = time.perf_counter(); env = KitchenEnv(recipe); first = (time.perf_counter() - a) * 1000
build = ms(lambda: KitchenEnv(recipe), 20)
reset = ms(lambda: env.reset(), 20)
lines = [l for l in cookingbot.Benchmark()[recipe].gold.splitlines()[1:] if l]
env.reset()
for l in lines[:-1]:
    env.step(l)
def step():
    env.step(lines[-1]); env.step("undo")
stepms = ms(step, 50)
env.step(lines[-1])
clone = ms(lambda: env.kitchen.clone(), 200)
vec = ms(lambda: gymnasium.make_vec("cookingbot/Kitchen-v0", num_envs=4, recipe_id=recipe), 5)
split = ms(lambda: gymnasium.make("cookingbot/Kitchen-test-v0", heldout=sys.argv[1]).reset(seed=0), 5)
d = Path(tempfile.mkdtemp())
k = cookingbot.Kitchen(recipe, log=d / "run.jsonl")
for l in lines:
    k.step(l)
k.finish()
replay = ms(lambda: cookingbot.replay(d / "run.jsonl"), 5)
print(f"import cookingbot + gym: {t_import*1000:.0f} ms")
print(f"first KitchenEnv in the process: {first:.1f} ms")
print(f"KitchenEnv build (next): {build:.2f} ms")
print(f"make_vec 4: {vec:.1f} ms")
print(f"split env make + first reset: {split:.1f} ms")
print(f"reset: {reset:.2f} ms")
print(f"step (last line + undo): {stepms:.2f} ms")
print(f"clone: {clone:.3f} ms")
print(f"replay: {replay:.1f} ms")
