-- War and Peace, the Grand Campaign: the Alliance Phase (G.1.c-g, G.1.k, G.2). In the
-- Neutral Player(s) Segment each player of a neutral state announces whether it joins the
-- pro- or the anti-French faction or stays neutral; in the Pro- and Anti-French Segments
-- each player of a state of that faction announces whether it stays or becomes neutral, and
-- then the French (or English) player may name one major state no player represents and
-- roll for it: a die with the cumulative modifier (City Points, states and groups, at most
-- 4 either way; the English Production Points lent to it), read on the owner's Alliance
-- Table. Each January the French player also rolls twice for the foreign wars.

local util = include("@lib/util.lua")
local states = include("rules/states.lua")
local calendar = include("rules/calendar.lua")
local january = include("rules/january.lua")

local alliance = {}

-- The lowest and highest rows of the Alliance Table the module reads (RULES-GAPS.md).
alliance.LOWEST, alliance.HIGHEST = -3, 14

--- The states whose players announce in this segment (G.1.c-e): the played major states
--- of the faction, France and England excepted (they lead the factions).
function alliance.announcers(ctx, faction)
  return util.filter(calendar.majors_of(ctx, faction), function(major)
    return states.played(ctx, major) and major ~= "FR" and major ~= "EN"
  end)
end

--- The major states the faction's leader may roll for (G.1.d-e, G.1.l, I.2.a, I.2.f): no
--- player represents them, they are not France or England, not already of the faction, and
--- not conquered with land units still in their Force Pool.
function alliance.candidates(ctx, faction)
  return util.filter(states.MAJORS, function(major)
    return not states.played(ctx, major) and major ~= "FR" and major ~= "EN"
      and ctx.vars.status[major] ~= faction and not ctx.vars.conquered[major]
  end)
end

--- The Alliance Table's result for `state` on a modified roll of `roll` (read within the
--- table's rows).
function alliance.result(ctx, state, roll)
  local row = math.max(alliance.LOWEST, math.min(alliance.HIGHEST, roll))
  return ctx.data.tables.alliance[state .. "/" .. row], row
end

alliance.states = {}

local phase = {}
alliance.states.alliance_phase = phase

function phase.on_enter(ctx)
  local l = ctx.locals
  ctx:set_phase(string.format("%s: %s, Alliance Phase", calendar.words(ctx:turn()), calendar.SEGMENTS[l.faction]))
  l.announcers, l.n = alliance.announcers(ctx, l.faction), 1
  l.leader = l.faction == "pro" and "FR" or l.faction == "anti" and "EN" or nil
end

--- G.2.a: each January, in his Alliance Phase, the French player rolls the die twice; a 1
--- starts the foreign war the owner's table gives for that roll.
function alliance.foreign_wars(ctx)
  for roll = 1, 2 do
    local die = ctx:roll(6, string.format("France's foreign war roll %d", roll))
    if die == 1 then
      local war = ctx.data.tables.foreign_wars[tostring(roll)]
      ctx.vars.wars[#ctx.vars.wars + 1] = war
      ctx:log(string.format("Foreign war roll %d: a 1: %s (G.2).", roll, war))
    else
      ctx:log(string.format("Foreign war roll %d: %d, no war (G.2).", roll, die))
    end
  end
end

--- Whether the segment's Alliance Phase has anything to ask: an announcement, or a state
--- its leader may roll for.
function alliance.asks(ctx, faction)
  return #alliance.announcers(ctx, faction) > 0 or (faction ~= "neutral" and #alliance.candidates(ctx, faction) > 0)
end

local function announcing(l)
  return l.announcers[l.n]
end

function phase.prompt(ctx)
  local l = ctx.locals
  local state = announcing(l)
  if state then
    local actions
    if l.faction == "neutral" then
      actions = {
        { name = "announce", arg = "pro", label = "Join the pro-French faction" },
        { name = "announce", arg = "anti", label = "Join the anti-French faction" },
        { name = "announce", arg = "neutral", label = "Remain neutral" },
      }
    else
      actions = {
        { name = "announce", arg = l.faction, label = "Remain " .. states.STATUS_WORDS[l.faction] },
        { name = "announce", arg = "neutral", label = "Adopt neutrality" },
      }
    end
    return {
      seat = state,
      text = string.format("%s: Alliance Phase (G.1): %s announces its status", calendar.words(ctx:turn()), states.name(ctx, state)),
      actions = actions,
    }
  end
  local actions = { { name = "no_roll", label = "Roll for no state" } }
  for _, major in ipairs(alliance.candidates(ctx, l.faction)) do
    local lent = l.faction == "anti" and (ctx.vars.lent[major] or 0) or 0
    local modifier = states.alliance_modifier(ctx, lent)
    actions[#actions + 1] = { name = "roll_for", arg = major, label = string.format("Roll for %s (%+d)", states.name(ctx, major), modifier) }
  end
  return {
    seat = l.leader,
    text = string.format("%s: Alliance Phase (G.1): %s may roll to change one major state's status", calendar.words(ctx:turn()), states.name(ctx, l.leader)),
    actions = actions,
  }
end

-- The announcements are over: the leader's roll, or (neutral segment) the end.
local function next_announcer(ctx)
  local l = ctx.locals
  l.n = l.n + 1
  if announcing(l) == nil and l.leader == nil then
    ctx:pop(nil)
  end
end

--- K.4.b: a major state no player represents turns pro-French: the French player rolls two
--- dice for the force he requisitions from it: that many infantry strength points, and with
--- 6 or less an unnamed leader and a cavalry strength point, with 7 or more two cavalry
--- strength points and a named leader drawn at random. Returns the dice's total.
function alliance.expedition(ctx, state)
  local t = ctx.data.tables.expedition
  local dice = ctx:roll(6, "France's expeditionary force, first die") + ctx:roll(6, "France's expeditionary force, second die")
  local high = dice >= t.high_from
  ctx:log(string.format("France requisitions an expeditionary force from %s (K.4.b): %d: %d infantry and %d cavalry strength points, with %s.",
    states.name(ctx, state), dice, dice, high and t.high_cavalry or t.low_cavalry,
    high and "a named leader drawn at random" or "an unnamed leader"))
  return dice
end

--- Sets `state`'s status, with the log line `why`.
function alliance.set_status(ctx, state, status, why)
  local was = ctx.vars.status[state]
  ctx.vars.status[state] = status
  if was ~= status then
    ctx:log(string.format("%s becomes %s (%s).", states.name(ctx, state), states.STATUS_WORDS[status], why))
    if status == "pro" and not states.played(ctx, state) and ctx.vars.options["k4.expeditions"] == "on" then
      alliance.expedition(ctx, state)
    end
  else
    ctx:log(string.format("%s stays %s (%s).", states.name(ctx, state), states.STATUS_WORDS[status], why))
  end
end

function phase.announce(ctx, status)
  local l = ctx.locals
  local state = announcing(l)
  alliance.set_status(ctx, state, status, "its player's announcement, G.1")
  -- A state neutral of its own will has its prisoners back at once (G.3.c).
  if status == "neutral" and l.faction ~= "neutral" then
    january.free(ctx, state)
  end
  next_announcer(ctx)
end

function phase.roll_for(ctx, major)
  local l = ctx.locals
  local lent = l.faction == "anti" and (ctx.vars.lent[major] or 0) or 0
  local modifier, why = states.alliance_modifier(ctx, lent)
  local die = ctx:roll(6, string.format("%s's Alliance Phase roll for %s", states.name(ctx, l.leader), states.name(ctx, major)))
  local result, row = alliance.result(ctx, major, die + modifier)
  ctx:log(string.format("%s rolls for %s: %d %s = %d%s.", states.name(ctx, l.leader), states.name(ctx, major), die,
    table.concat(why, ", "), die + modifier, row ~= die + modifier and string.format(" (read as %d)", row) or ""))
  alliance.set_status(ctx, major, result, "the Alliance Table, G.1")
  ctx.vars.lent[major] = nil
  ctx:pop(nil)
end

function phase.no_roll(ctx)
  ctx:pop(nil)
end

return alliance
