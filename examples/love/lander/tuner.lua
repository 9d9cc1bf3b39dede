-- addbo inside the game loop: asks for the autopilot's parameters before each episode and tells
-- its score after, from love.update, with at most one addbo call per frame (the tell in the
-- frame after an episode ends, the next ask in the frame after that), so that no frame waits
-- for more than one call. It measures each call and keeps the per-frame cost of addbo against
-- BUDGET_MS. No LÖVE call here: main.lua passes the clock (love.timer.getTime).
local tuner = {}
tuner.__index = tuner

-- Half a frame at 60 frames per second: what addbo may take of a frame. A call takes about
-- 0.1 ms; the asks that also learn the model (every few episodes) a few milliseconds.
tuner.BUDGET_MS = 8.0

-- A tuner of the variables `parameters` ({name, lower, upper} each), maximising the score.
function tuner.new(addbo, parameters, seed, clock)
  local variables = {}
  for i, p in ipairs(parameters) do
    variables[i] = { name = p.name, type = "continuous", lower = p.lower, upper = p.upper }
  end
  return setmetatable({
    optimizer = addbo.Optimizer({ variables = variables, goal = "maximize", seed = seed }),
    clock = clock,
    point = nil,          -- the point being flown (pending in the optimizer)
    score = nil,          -- its score, to tell in the next frame
    wants_point = true,   -- an episode waits for its parameters
    frame_ms = {},        -- the cost of addbo in every frame that called it
    last_ms = 0.0,
  }, tuner)
end

-- The one addbo call this frame may make, if any: tells the last score, or else asks for the
-- next point. Returns the new point when it asked, else nil.
function tuner:update()
  if self.score == nil and not self.wants_point then return nil end
  local start = self.clock()
  local asked = nil
  if self.score ~= nil then
    self.optimizer:tell(self.point, self.score)
    self.point, self.score = nil, nil
  else
    asked = self.optimizer:ask()
    self.point, self.wants_point = asked, false
  end
  self.last_ms = (self.clock() - start) * 1000.0
  self.frame_ms[#self.frame_ms + 1] = self.last_ms
  return asked
end

-- The episode flown with self.point scored `score`; `more`: another episode follows.
function tuner:finished(score, more)
  self.score = score
  self.wants_point = more
end

-- Whether a call is still to be made (a score to tell or a point to ask).
function tuner:busy()
  return self.score ~= nil or self.wants_point
end

-- {frames, median_ms, max_ms, over_budget} over the frames that called addbo.
function tuner:cost()
  local sorted = {}
  for i, ms in ipairs(self.frame_ms) do sorted[i] = ms end
  table.sort(sorted)
  local over = 0
  for _, ms in ipairs(sorted) do
    if ms > tuner.BUDGET_MS then over = over + 1 end
  end
  return { frames = #sorted, median_ms = sorted[math.floor((#sorted + 1) / 2)] or 0.0,
           max_ms = sorted[#sorted] or 0.0, over_budget = over }
end

return tuner
