-- La Guerre de l'Empereur: the Turn Preparation Sequences (4.7) before a Player Country's
-- turn proper: the optional NPC Alliance roll for 10 gold (4.71), then the Event Table
-- Sequence (4.72): a die on the Administrative Events Table #1 (France and Britain add
-- one), a 9 sending the roll to the Political Events Table #2, a 10 to the Strategic
-- Events Table #3, and France's or Britain's 11 to its own Diplomacy Table. The events'
-- texts are owner data; a one-time event that has happened happens no more, and an event
-- whose criteria are not met does not happen (the player says so).

local util = include("@lib/util.lua")
local powers = include("rules/powers.lua")
local winter = include("rules/winter.lua")

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

-- 4.71: the optional NPC Alliance roll, for 10 gold (none in a deficit: 4.221).
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
    ctx:replace("player_turn", { power = power, queue = ctx.locals.queue })
    return
  end
  ctx:replace("event", { power = power, queue = ctx.locals.queue, key = key, text = event.text, once = event.once, deferred = event.deferred })
end

function preparation.npc_roll(ctx, npc)
  local power = ctx.locals.power
  ctx:add_counter("gold." .. power, -prepare.NPC_ROLL_COST)
  winter.roll_for(ctx, power, npc)
  roll_events(ctx)
end

function preparation.events(ctx)
  roll_events(ctx)
end

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
  ctx:replace("player_turn", { power = ctx.locals.power, queue = ctx.locals.queue })
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
  ctx:replace("player_turn", { power = ctx.locals.power, queue = ctx.locals.queue })
end

function event.defer(ctx)
  local power = ctx.locals.power
  ctx.vars.deferred[power] = ctx.locals.text
  if ctx.locals.once then
    ctx.vars.events_done[ctx.locals.key] = true
  end
  ctx:log(string.format("%s defers the event to the end of its Alliance Step (4.722).", name(ctx, power)))
  ctx:replace("player_turn", { power = power, queue = ctx.locals.queue })
end

return prepare
