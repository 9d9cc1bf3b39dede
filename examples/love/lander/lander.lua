-- The game: a lander descends onto a pad under an autopilot whose 7 parameters addbo tunes
-- (tuner.lua). One episode is one landing from the same start; its score rewards a soft
-- landing on the pad with little fuel and time, and punishes a crash by its speed. Pure Lua,
-- deterministic (a fixed 1/60 s step), no LÖVE calls: main.lua draws it.
local lander = {}

lander.STEP = 1 / 60          -- seconds per simulation step
lander.GRAVITY = 1.62         -- m/s^2, the Moon's
lander.MAIN_THRUST = 5.0      -- m/s^2 at full main engine
lander.SIDE_THRUST = 1.5      -- m/s^2 at full side thrusters
lander.PAD_HALF_WIDTH = 10.0  -- metres either side of x = 0
lander.MAX_SECONDS = 60.0     -- an episode still flying then is over (hovering)
lander.START = { x = -80.0, y = 120.0, vx = 6.0, vy = -2.0 }

-- The autopilot's parameters: addbo's variables, by name, with their ranges.
lander.PARAMETERS = {
  { name = "descent_rate", lower = 0.02, upper = 1.0 },    -- desired descent speed per metre of height
  { name = "max_descent", lower = 1.0, upper = 15.0 },     -- m/s, the fastest descent wanted
  { name = "touchdown_speed", lower = 0.2, upper = 2.5 },  -- m/s, the slowest descent wanted
  { name = "thrust_gain", lower = 0.2, upper = 5.0 },      -- main engine per m/s of speed error
  { name = "aim_gain", lower = 0.0, upper = 1.0 },         -- desired side speed per metre off the pad
  { name = "max_side_speed", lower = 1.0, upper = 15.0 },  -- m/s
  { name = "side_gain", lower = 0.1, upper = 5.0 },        -- side thrusters per m/s of speed error
}

local function clamp(value, low, high)
  return math.max(low, math.min(high, value))
end

-- A new episode flown with parameters `p` (a point of addbo: p[1] .. p[7]).
function lander.new_episode(p)
  local s = lander.START
  return {
    p = p, x = s.x, y = s.y, vx = s.vx, vy = s.vy, time = 0.0, fuel = 0.0,
    main = 0.0, side = 0.0, over = false, score = nil, outcome = nil, path = { s.x, s.y },
  }
end

-- The score of an episode that touched down (or ran out of time).
local function score_of(e)
  local soft = math.abs(e.vy) <= 2.0 and math.abs(e.vx) <= 1.0
  if e.outcome == "hovering" then
    return -50.0, "hovering"
  elseif soft and math.abs(e.x) <= lander.PAD_HALF_WIDTH then
    return 100.0 - e.fuel - 0.5 * e.time - math.abs(e.x), "landed"
  elseif soft then
    return 40.0 - math.abs(e.x), "landed off the pad"
  end
  return -5.0 * (math.abs(e.vy) + math.abs(e.vx)), "crashed"
end

-- Advances episode `e` by one step; sets e.over, e.score and e.outcome when it ends.
function lander.step(e)
  if e.over then return end
  local p, dt = e.p, lander.STEP
  -- The autopilot: a wanted descent speed that slows with height, and a wanted side speed
  -- towards the pad, each followed by a proportional controller.
  local wanted_vy = -clamp(p[1] * e.y, p[3], p[2])
  e.main = clamp((lander.GRAVITY + p[4] * (wanted_vy - e.vy)) / lander.MAIN_THRUST, 0.0, 1.0)
  local wanted_vx = -clamp(p[5] * e.x, -p[6], p[6])
  e.side = clamp(p[7] * (wanted_vx - e.vx) / lander.SIDE_THRUST, -1.0, 1.0)
  local ax = e.side * lander.SIDE_THRUST
  local ay = e.main * lander.MAIN_THRUST - lander.GRAVITY
  e.vx, e.vy = e.vx + ax * dt, e.vy + ay * dt
  e.x, e.y = e.x + e.vx * dt, e.y + e.vy * dt
  e.time = e.time + dt
  e.fuel = e.fuel + 0.2 * (math.abs(ax) + e.main * lander.MAIN_THRUST) * dt
  if #e.path < 4000 and (math.floor(e.time / dt + 0.5) % 6 == 0) then
    e.path[#e.path + 1], e.path[#e.path + 2] = e.x, e.y
  end
  if e.y <= 0.0 then
    e.y, e.over = 0.0, true
  elseif e.time >= lander.MAX_SECONDS then
    e.over, e.outcome = true, "hovering"
  end
  if e.over then e.score, e.outcome = score_of(e) end
end

return lander
