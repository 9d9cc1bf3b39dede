-- Lua 5.4 only (to-be-closed variables), run by test_addbo.lua's close case:
--   loadfile("close_scope.lua")(addbo, config_text, another_config_text, check)
-- An optimizer declared <close> is closed at the end of its scope, also when an error leaves it.
local addbo, config, other_config, check = ...

local scoped
do
  local inner <close> = addbo.Optimizer(config)
  scoped = inner
  check(inner:dimension() == 6, "open inside the <close> scope")
end
check(scoped:closed(), "closed at the end of the <close> scope")

local escaped
pcall(function()
  local failing <close> = addbo.Optimizer(other_config)
  escaped = failing
  error("boom")
end)
check(escaped:closed(), "closed when the scope is left by an error")
