-- A simulation that crashes on part of the box and whose result must respect a limit
-- (docs/real-objectives.md): minimise a beam's mass subject to its stress staying at most 12,
-- telling the evaluations that diverge as failures.
local addbo = require("addbo")

-- The "simulation": mass and stress, or nil when it diverges (a thin, narrow beam buckles).
local function simulate(x)
  local section = x[1] * x[2]
  if section < 15 then return nil end
  return section + 0.5 * x[3] * x[4], 1000 / (section + 0.2 * x[3] * x[4] + 1)
end

local optimizer = addbo.Optimizer({
  variables = {
    { name = "thickness", lower = 1, upper = 10 },
    { name = "width", lower = 1, upper = 10 },
    { name = "rib_height", lower = 0, upper = 5 },
    { name = "ribs", lower = 0, upper = 5 },
  },
  goal = "minimize",
  seed = 3,
  constraints = { { name = "stress", upper = 12 } },
})
for _ = 1, 60 do
  local x = optimizer:ask()
  local mass, stress = simulate(x)
  if mass then
    optimizer:tell(x, mass, { stress = stress })  -- the constraints by name (or as a list)
  else
    optimizer:tell_failure(x)  -- diverged: no value
  end
end
local best = optimizer:best()  -- the best feasible design
local _, stress = simulate(best.x)
print(("best feasible mass %.3f (stress %.2f <= 12), %d of 60 evaluations failed")
  :format(best.y, stress, optimizer:failures()))
optimizer:close()
if stress > 12 then os.exit(1) end
