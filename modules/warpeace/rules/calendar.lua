-- War and Peace, the Grand Campaign: the month (E). Each turn is a month, September 1805
-- to August 1815 (C.3), in three segments: the Neutral Player(s) Segment (Naval,
-- Reinforcement, Movement and Alliance Phases), then the Pro-French and the Anti-French
-- Player(s) Segments (Naval, Attrition, Alliance, Reinforcement, Movement and Combat
-- Phases); then the Turn marker advances. The moves and the land combat are played at the
-- table; the module runs the Alliance and Reinforcement Phases, the naval calculators and
-- the January chores, and asks for the end of each phase played at the table.

local steps = include("@lib/steps.lua")
local states = include("rules/states.lua")

local calendar = {}

calendar.MONTHS = { "January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December" }

calendar.LAST_TURN = 120

--- Turn `turn`'s month (1 is January) and year: turn 1 is September 1805.
function calendar.month_of(turn)
  local n = 8 + turn - 1
  return n % 12 + 1, 1805 + n // 12
end

--- Turn `turn` in words ("September 1805").
function calendar.words(turn)
  local month, year = calendar.month_of(turn)
  return string.format("%s %d", calendar.MONTHS[month], year)
end

function calendar.january(ctx)
  return calendar.month_of(ctx:turn()) == 1
end

-- The segment's faction in words.
calendar.SEGMENTS = {
  neutral = "1. Neutral Player(s) Segment",
  pro = "2. Pro-French Player(s) Segment",
  anti = "3. Anti-French Player(s) Segment",
}

--- The major states of `faction` (its status), in the seats' order.
function calendar.majors_of(ctx, faction)
  return states.with_status(ctx, states.MAJORS, faction)
end

--- The seat that plays a segment's phases at the table: the French player's for the
--- pro-French, the English player's for the anti-French, and for the neutral the first
--- player who represents a neutral state (nil: none does, and no neutral units move, E.1.c).
function calendar.lead(ctx, faction)
  if faction == "pro" then
    return "FR"
  elseif faction == "anti" then
    return "EN"
  end
  for _, major in ipairs(calendar.majors_of(ctx, "neutral")) do
    if states.played(ctx, major) then
      return major
    end
  end
  return nil
end

calendar.states = {}

-- A phase played at the table: its seat says when it is over; the calculators its rules
-- allow are offered with it (`extra`: the actions).
local phase = {}
calendar.states.phase = phase

function phase.on_enter(ctx)
  ctx:set_phase(string.format("%s: %s, %s", calendar.words(ctx:turn()), calendar.SEGMENTS[ctx.locals.faction], ctx.locals.name))
end

function phase.prompt(ctx)
  local l = ctx.locals
  local actions = { { name = "done", label = "The " .. l.name .. " is over" } }
  for _, action in ipairs(l.extra or {}) do
    actions[#actions + 1] = action
  end
  return {
    seat = l.seat,
    text = string.format("%s, %s: %s (%s)", calendar.words(ctx:turn()), l.name, l.text, calendar.SEGMENTS[l.faction]),
    actions = actions,
  }
end

function phase.done(ctx)
  ctx:pop(nil)
end

-- The phases of a segment in the order E gives them, each a step of the segment.
local function at_table(name, text, extra)
  return {
    name = name,
    calls = "phase",
    run = function(ctx)
      local seat = calendar.lead(ctx, ctx.locals.faction)
      if seat == nil then
        return nil
      end
      return steps.call("phase", {
        name = name, text = text, faction = ctx.locals.faction, seat = seat,
        extra = extra and extra(ctx, ctx.locals.faction) or nil,
      })
    end,
  }
end

calendar.at_table = at_table

--- The month's procedure, with the module's own steps (`hooks`: naval, attrition,
--- alliance, reinforcement, movement and combat steps, each a function of the faction
--- giving a step), in the order E gives them.
function calendar.procedures(hooks)
  local neutral = steps.procedure("Neutral Player(s) Segment", {
    hooks.naval,
    hooks.neutral_additions,
    hooks.reinforcement,
    hooks.movement,
    hooks.alliance,
  })
  local war = steps.procedure("Player(s) Segment", {
    hooks.naval,
    hooks.attrition,
    hooks.alliance,
    hooks.reinforcement,
    hooks.movement,
    hooks.combat,
  })
  local month = steps.procedure("Month", {
    { name = "January chores", calls = "prisoners", run = function(ctx) return hooks.january(ctx) end },
    {
      name = calendar.SEGMENTS.neutral,
      calls = "neutral_segment",
      run = function()
        return steps.call("neutral_segment", { faction = "neutral" })
      end,
    },
    {
      name = calendar.SEGMENTS.pro,
      calls = "war_segment",
      run = function()
        return steps.call("war_segment", { faction = "pro" })
      end,
    },
    {
      name = calendar.SEGMENTS.anti,
      calls = "war_segment",
      run = function()
        return steps.call("war_segment", { faction = "anti" })
      end,
    },
    { name = "4. The Turn marker advances", calls = "final_count", run = function(ctx) return hooks.advance(ctx) end },
    again = true,
  })
  return { month = month, neutral_segment = neutral, war_segment = war }
end

return calendar
