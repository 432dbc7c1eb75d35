-- La Guerre de l'Empereur: a country's turn. First a Player Country's Turn Preparation
-- Sequences (4.7): the optional NPC Alliance roll for 10 gold (4.71), then the Event Table
-- Sequence (4.72): a die on the Administrative Events Table #1 (France and Britain add
-- one), a 9 sending the roll to the Political Events Table #2, a 10 to the Strategic
-- Events Table #3, and France's or Britain's 11 to its own Diplomacy Table. The events'
-- texts are owner data; a one-time event that has happened happens no more, and an event
-- whose criteria are not met does not happen (the player says so). Then the Player Turn
-- proper (5.0): the Peace, Alliance and War Declaration Steps and the Naval and Land
-- Phases, in their order. The turn is one procedure (@lib/steps.lua).

local alliance = include("rules/alliance.lua")
local battle = include("rules/battle.lua")
local mat = include("rules/mat.lua")
local naval = include("rules/naval.lua")
local peace = include("rules/peace.lua")
local powers = include("rules/powers.lua")
local season = include("rules/season.lua")
local steps = include("@lib/steps.lua")
local util = include("@lib/util.lua")
local war = include("rules/war.lua")
local winter = include("rules/winter.lua")
local ask = include("rules/ask.lua")

local prepare = {}

prepare.NPC_ROLL_COST = 10

-- The event tables: the Administrative table's 9, 10 and 11 send the roll on.
prepare.TABLES = {
  admin = { id = "events_administrative", name = "Administrative Events Table #1" },
  political = { id = "events_political", name = "Political Events Table #2" },
  strategic = { id = "events_strategic", name = "Strategic Events Table #3" },
  FR = { id = "diplomacy_french", name = "French Diplomacy Table #4" },
  GB = { id = "diplomacy_british", name = "British Diplomacy Table #5" },
}

local name = powers.name
local date = season.date

-- The Loyal Minor Powers a Remapping Europe event forms (3.42, 4.73).
prepare.LOYAL = powers.LOYAL

--- The table an Administrative roll of `admin` sends `power` to (nil: the Administrative
--- table itself).
function prepare.routed(power, admin)
  if admin == 9 then
    return "political"
  elseif admin == 10 then
    return "strategic"
  elseif admin >= 11 then
    return power
  end
  return nil
end

prepare.states = {}

-- 4.72: a die on the Administrative Events Table (France and Britain add one), sent on to
-- another table by a 9, 10 or 11; the event it names is then the player's to carry out,
-- unless it is a one-time event that has happened already (4.721).
local function roll_events(ctx)
  local power = ctx.locals.power
  local die = ctx:roll(10, name(ctx, power) .. "'s Administrative Events roll")
  local admin = die + ((power == "FR" or power == "GB") and 1 or 0)
  local routed = prepare.routed(power, admin)
  local which, roll = "admin", admin
  if routed then
    which = routed
    roll = ctx:roll(10, string.format("%s's roll on the %s", name(ctx, power), prepare.TABLES[routed].name))
  end
  local tbl = prepare.TABLES[which]
  local key = which .. "/" .. roll
  local event = ctx.data.tables[tbl.id][tostring(roll)]
  ctx:log(string.format("%s: %s %d: %s%s", name(ctx, power), tbl.name, roll, event.text,
    event.once and " (one time)" or ""))
  if event.once and ctx.vars.events_done[key] then
    ctx:log("It has happened already: no event (4.72).")
    return nil
  end
  return steps.call("event", { power = power, key = key, text = event.text, once = event.once, deferred = event.deferred })
end

-- A country's turn (4.7, 5.0): a Player Country's Turn Preparation Sequences, then its
-- Player Turn proper; a Controlled NPC has only the turn proper (only the players roll on
-- the Event Table, 4.72).
prepare.states.turn = steps.procedure("5.0 A Player Turn", {
  {
    name = "4.71 Optional NPC Alliance roll",
    calls = "preparation",
    run = function(ctx)
      if ctx.vars.pcs_set[ctx.locals.power] then
        return steps.call("preparation", { power = ctx.locals.power })
      end
    end,
    -- 10 gold paid to the bank, then the roll on the NPC Alliance Table (4.4).
    resume = function(ctx, npc)
      if npc then
        ctx:add_counter("gold." .. ctx.locals.power, -prepare.NPC_ROLL_COST)
        winter.roll_for(ctx, ctx.locals.power, npc)
      end
    end,
  },
  {
    name = "4.72 Event Table Sequence",
    calls = "event",
    run = function(ctx)
      if ctx.vars.pcs_set[ctx.locals.power] then
        return roll_events(ctx)
      end
    end,
  },
  {
    name = "5.0 The Player Turn proper: Peace, Alliance, War Declaration, Naval and Land",
    calls = "player_turn",
    run = function(ctx)
      return steps.call("player_turn", { power = ctx.locals.power })
    end,
  },
})

-- 4.71: the optional NPC Alliance roll, for 10 gold (none in a deficit: 4.221). It hands
-- back the NPC rolled for, or nothing.
local preparation = {}
prepare.states.preparation = preparation

function preparation.on_enter(ctx)
  ctx:set_phase(string.format("%s %d: %s's Turn Preparation", ctx.vars.season, ctx.vars.year, name(ctx, ctx.locals.power)))
end

function preparation.prompt(ctx)
  local power = ctx.locals.power
  local actions = {}
  if ctx:counter("gold." .. power) >= prepare.NPC_ROLL_COST then
    actions = winter.npc_rolls(ctx, power, "npc_roll", "Pay 10 gold and roll")
  end
  actions[#actions + 1] = { name = "events", label = "Roll on the Event Table" }
  return {
    seat = power,
    text = string.format("%s's Turn Preparation (4.7): an NPC Alliance roll for 10 gold, if it wishes", name(ctx, power)),
    actions = actions,
  }
end

preparation.npc_roll = ask.given
preparation.events = ask.done

-- The event, carried out at the table; or its criteria are not met; or, one of the four
-- that may wait (4.722), deferred to the end of the Alliance Step.
local event = {}
prepare.states.event = event

function event.prompt(ctx)
  local actions = {
    { name = "applied", label = "Carried out" },
    { name = "not_met", label = "Its criteria are not met: no event" },
  }
  if ctx.locals.deferred then
    actions[#actions + 1] = { name = "defer", label = "Defer it to the end of the Alliance Step" }
  end
  -- Two kinds of event leave a mark the module keeps: a Peace Party (4.74) and a Remapping
  -- of Europe into a Loyal Minor Power (3.42, 4.73); the player says which it is.
  for _, pc in ipairs(ctx.vars.pcs) do
    if not ctx.vars.peace_party[pc] then
      actions[#actions + 1] = { name = "peace_party", arg = pc, label = string.format("Carried out: a Peace Party in %s (4.74)", name(ctx, pc)) }
    end
  end
  local power = ctx.locals.power
  for _, minor in ipairs(prepare.LOYAL) do
    if not ctx.vars.loyal[minor.id] and (minor.only == nil or minor.only == power) then
      if minor.provinces then
        -- Poland (5 VP a province) and the Rhine (four or more): the player says how many
        -- provinces it is formed of, which a later event may add to (4.73, L1209-L1214).
        for n = minor.provinces[1], minor.provinces[2] do
          actions[#actions + 1] = { name = "remap", arg = minor.id .. ":" .. n, label = string.format("Carried out: %s forms %s of %d provinces (%s)", name(ctx, power), minor.name, n, minor.rule) }
        end
      else
        actions[#actions + 1] = { name = "remap", arg = minor.id, label = string.format("Carried out: %s forms %s (%s)", name(ctx, power), minor.name, minor.rule) }
      end
    elseif ctx.vars.loyal[minor.id] == power and minor.provinces then
      -- Its founder expands it by a later Remapping event (4.731).
      local now = ctx.vars.loyal_provinces[minor.id] or minor.provinces[1]
      for k = 1, minor.provinces[2] - now do
        actions[#actions + 1] = { name = "expand", arg = minor.id .. ":" .. k, label = string.format("Carried out: %s adds %d province(s) to %s (%s)", name(ctx, power), k, minor.name, minor.rule) }
      end
    end
  end
  return {
    seat = ctx.locals.power,
    text = string.format("The event (4.72): %s", ctx.locals.text),
    actions = actions,
  }
end

function event.applied(ctx)
  if ctx.locals.once then
    ctx.vars.events_done[ctx.locals.key] = true
  end
  ctx:pop()
end

function event.peace_party(ctx, pc)
  ctx.vars.peace_party[pc] = { quiet = false }
  ctx:log(string.format("A Peace Party in %s: each Winterphase it costs 2d10 gold and 5 VP, until %s has been at peace a whole Combat Season (4.74, 4.741).", name(ctx, pc), name(ctx, pc)))
  event.applied(ctx)
end

-- The founder, if a PC, gains `vp` VP now (4.73, L1225-L1226); the words of it.
local function founder_gains(ctx, power, vp)
  if vp == 0 or not util.contains(ctx.vars.pcs, power) then
    return ""
  end
  ctx:add_counter("vp." .. power, vp)
  return string.format("; %s gains %d VP", name(ctx, power), vp)
end

-- The Loyal Minor Power and the number an event's argument names ("poland:3", "italy").
local function loyal_arg(arg)
  local id, n = string.match(tostring(arg), "^([%w_]+):?(%d*)$")
  for _, minor in ipairs(prepare.LOYAL) do
    if minor.id == id then
      return minor, tonumber(n)
    end
  end
  return nil
end

function event.remap(ctx, arg)
  local minor, n = loyal_arg(arg)
  local power = ctx.locals.power
  if minor then
    ctx.vars.loyal[minor.id] = power
    local provinces = n or (minor.provinces and minor.provinces[1])
    ctx.vars.loyal_provinces[minor.id] = provinces
    local vp = minor.per_province and minor.per_province * provinces or minor.vp or 0
    local size = minor.provinces and string.format(" of %d provinces", provinces) or ""
    ctx:log(string.format("%s forms %s%s, a Loyal Minor Power (%s)%s; its provinces are remapped at the table.",
      name(ctx, power), minor.name, size, minor.rule, founder_gains(ctx, power, vp)))
  end
  event.applied(ctx)
end

function event.expand(ctx, arg)
  local minor, k = loyal_arg(arg)
  local power = ctx.locals.power
  if minor and k then
    local id = minor.id
    ctx.vars.loyal_provinces[id] = (ctx.vars.loyal_provinces[id] or minor.provinces[1]) + k
    local vp = (minor.per_province or minor.grows or 0) * k
    ctx:log(string.format("%s adds %d province(s) to %s, now of %d (%s)%s.", name(ctx, power), k, minor.name,
      ctx.vars.loyal_provinces[id], minor.rule, founder_gains(ctx, power, vp)))
  end
  event.applied(ctx)
end

function event.not_met(ctx)
  ctx:log("Its criteria are not met: no event (4.72); a one-time event may still come on a later roll (4.721).")
  ctx:pop()
end

function event.defer(ctx)
  local power = ctx.locals.power
  ctx.vars.deferred[power] = ctx.locals.text
  if ctx.locals.once then
    ctx.vars.events_done[ctx.locals.key] = true
  end
  ctx:log(string.format("%s defers the event to the end of its Alliance Step (4.722).", name(ctx, power)))
  ctx:pop()
end

-- A Player Turn (5.0): its steps in their order, the Peace Step (1), the Alliance Step
-- (2), the War Declaration Step (3), then the Naval and Land Phases (4), played at the
-- table with the calculators; an action of a later step closes the earlier ones. Its
-- player draws the next chit when it ends.
local player_turn = {}
prepare.states.player_turn = player_turn

prepare.STEPS = { "Peace Step", "Alliance Step", "War Declaration Step", "Naval and Land Phases" }

-- The step each action belongs to.
local STEP_OF = {
  offer_peace = 1, surrender = 1,
  ally = 2, leave = 2, break_npc = 2,
  declare_war = 3,
  naval = 4, battle = 4,
  done = 5,
}

function player_turn.on_enter(ctx)
  ctx:set_phase(string.format("%s: %s's Player Turn", date(ctx), name(ctx, ctx.locals.power)))
  ctx.locals.step = 1
end

-- The declarations of war `power` owes, in the powers' order (those it may still make).
local function owed(ctx, power)
  local list = {}
  for _, target in ipairs(ctx.vars.powers) do
    local ally = (ctx.vars.owed[power] or {})[target]
    if ally and not powers.at_war(ctx, power, target) and not powers.allied(ctx, power, target)
      and not powers.enforced(ctx, power, target) then
      list[#list + 1] = target
    end
  end
  return list
end

function player_turn.prompt(ctx)
  local l = ctx.locals
  local power = l.power
  local seat = ctx.vars.npc[power] == "controlled" and ctx.vars.controller[power] or power
  local actions = {}
  local function add(list)
    for _, action in ipairs(list) do
      if (STEP_OF[action.name] or l.step) >= l.step then
        actions[#actions + 1] = action
      end
    end
  end
  local pc = ctx.vars.pcs_set[power]
  add(peace.actions(ctx, power))
  if pc then
    add(alliance.actions(ctx, power))
    local declare = {}
    for _, target in ipairs(war.declarable(ctx, power)) do
      declare[#declare + 1] = { name = "declare_war", arg = target, label = string.format("Declare war on %s (10 VP, 5.31)", powers.names(ctx, powers.alliance(ctx, target))) }
    end
    add(declare)
    -- The Continental System (4.24, 4.243): France declares or cancels it; another player
    -- (Britain excepted: the embargo is against it) joins or leaves it of his own will (the
    -- conditions are the table's).
    local embargo = ctx.vars.embargo
    if power == "FR" then
      actions[#actions + 1] = embargo.FR and { name = "cancel_embargo", label = "Cancel the Continental System" }
        or { name = "declare_embargo", label = "Declare the Continental System (French troops in Berlin, or allied with Prussia)" }
    elseif embargo.FR and power ~= "GB" then
      actions[#actions + 1] = embargo[power] and { name = "leave_embargo", label = "Leave the Continental System" }
        or { name = "join_embargo", label = "Join the Continental System" }
    end
  end
  -- A power fights only the powers it is at war with (5.3).
  if powers.in_war(ctx, power) then
    add({
      { name = "naval", label = "Resolve a naval combat (5.44)" },
      { name = "battle", label = "Resolve a land battle (5.61)" },
    })
  end
  if pc then
    actions[#actions + 1] = { name = "mat", label = "Adjust my Player Mat (hidden from the other players, 2.5)" }
  end
  table.insert(actions, 1, { name = "done", label = "End the turn and draw" })
  local text = string.format("%s: %s's Player Turn, %s (moves played at the table)", date(ctx), name(ctx, power), prepare.STEPS[math.min(l.step, 4)])
  local debts = owed(ctx, power)
  if pc and l.step <= 3 and #debts > 0 then
    text = text .. string.format("; it owes its allies war on %s in this War Declaration Step, or leaves them (5.24)", powers.names(ctx, debts))
  end
  if pc and l.step <= 2 and ctx.vars.deferred[power] then
    text = text .. "; the deferred event comes at the end of the Alliance Step: " .. ctx.vars.deferred[power]
  end
  return { seat = seat, text = text, actions = actions }
end

--- The War Declaration Step is over: each ally `power` still owes a declaration to is
--- left, at 5 VP for its alliance of players (5.24) and 5 VP for each NPC (5.23).
local function unpaid(ctx, power)
  local creditors = {}
  for _, target in ipairs(owed(ctx, power)) do
    local ally = ctx.vars.owed[power][target]
    if not creditors[ally] then
      creditors[ally] = true
      creditors[#creditors + 1] = ally
    end
  end
  local broken = {}
  for _, ally in ipairs(creditors) do
    if not broken[ally] then
      broken[ally] = true
      if ctx.vars.npc_ally[ally] == power then
        powers.drop_npc(ctx, power, ally)
        local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
        ctx:log(string.format("%s did not declare war on %s's enemies: the alliance is broken and it pays %d VP (%d VP) (5.23); %s is %s.",
          name(ctx, power), name(ctx, ally), powers.BREAK_VP, vp, name(ctx, ally), ctx.vars.npc[ally]))
      elseif ctx.vars.league[power] and powers.allied(ctx, power, ally) then
        powers.leave(ctx, power)
        local vp = ctx:add_counter("vp." .. power, -powers.BREAK_VP)
        ctx:log(string.format("%s did not declare war on its allies' enemies: it leaves the alliance and pays %d VP (%d VP) (5.24).",
          name(ctx, power), powers.BREAK_VP, vp))
      end
    end
  end
  ctx.vars.owed[power] = nil
end

-- Moves the turn on to step `to`, closing the steps passed: the deferred event at the end
-- of the Alliance Step (4.722); the debts of war and the victory check at the end of the
-- War Declaration Step (5.24, 7.0). Returns false when the game has ended.
local function advance(ctx, to)
  local l = ctx.locals
  local power = l.power
  local pc = ctx.vars.pcs_set[power]
  if pc and l.step <= 2 and to > 2 and ctx.vars.deferred[power] then
    ctx:log(string.format("%s carries out its deferred event at the table: %s (4.722).", name(ctx, power), ctx.vars.deferred[power]))
    ctx.vars.deferred[power] = nil
  end
  if pc and l.step <= 3 and to > 3 then
    unpaid(ctx, power)
    local victor = season.victor(ctx)
    if victor then
      season.finish(ctx, string.format("%s reaches its objective of %d VP", name(ctx, victor), ctx.data.tables.victory_objective[victor]))
      return false
    end
  end
  l.step = math.max(l.step, math.min(to, 4))
  return true
end

function player_turn.offer_peace(ctx, arg)
  local from, to = arg:match("^(.-)>(.+)$")
  peace.offer(ctx, from, to)
end

function player_turn.surrender(ctx, loser)
  peace.surrender(ctx, loser)
end

-- The action `action` of a later step (STEP_OF): the turn moves on to that step, then
-- `act(ctx, power, arg)` does it for the turn's power (unless the game has ended on the
-- way, at the end of the War Declaration Step).
local function in_step(action, act)
  return function(ctx, arg)
    if advance(ctx, STEP_OF[action]) then
      act(ctx, ctx.locals.power, arg)
    end
  end
end

player_turn.ally = in_step("ally", alliance.propose)
player_turn.leave = in_step("leave", alliance.leave)
player_turn.break_npc = in_step("break_npc", alliance.break_npc)
player_turn.declare_war = in_step("declare_war", war.declare)
player_turn.battle = in_step("battle", battle.enter)
player_turn.naval = in_step("naval", naval.enter)

function player_turn.mat(ctx)
  mat.edit(ctx, ctx.locals.power)
end

-- Back from a sub-procedure: a form's figures go to what it was filled in for (a Corps of
-- the Player Mat, a battle, a naval combat); the rest need nothing.
function player_turn.on_resume(ctx, result)
  local power = ctx.locals.power
  if not mat.store(ctx, power, result) and not battle.begin(ctx, power, result) then
    naval.begin(ctx, power, result)
  end
end

function player_turn.declare_embargo(ctx)
  ctx.vars.embargo.FR = true
  ctx:log(string.format("%s: France declares the Continental System.", date(ctx)))
end

function player_turn.cancel_embargo(ctx)
  ctx.vars.embargo = {}
  ctx:log(string.format("%s: France cancels the Continental System.", date(ctx)))
end

function player_turn.join_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = true
  ctx:log(string.format("%s: %s joins the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

function player_turn.leave_embargo(ctx)
  ctx.vars.embargo[ctx.locals.power] = nil
  ctx:log(string.format("%s: %s leaves the Continental System.", date(ctx), name(ctx, ctx.locals.power)))
end

-- The turn is over (the player then draws the next chit, 5.7), unless it ended the game.
function player_turn.done(ctx)
  if advance(ctx, 5) then
    ctx:pop()
  end
end

return prepare
