-- La Guerre de l'Empereur: the Winterphase (4.0-4.4). The Economic Phase in its steps: each
-- player's taxes, read off the map (4.21), less his embargo's cost (4.258); the mandatory
-- expenses (4.22); the VP his provinces give (4.23); the Continental System's toll on
-- Britain (4.24); the secret VP purchase (4.25). Then the Diplomacy Phase at the table
-- (4.3), the NPC Alliance Phase in chit order (4.4), the NPC builds at the table (4.41),
-- and Spring.

local powers = include("rules/powers.lua")

local winter = {}

local name = powers.name

local function gold(ctx, power, n)
  return ctx:add_counter("gold." .. power, n)
end

--- The Player Countries in the Continental System, in power order.
function winter.embargoed(ctx)
  local list = {}
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx.vars.embargo[power] then
      list[#list + 1] = power
    end
  end
  return list
end

--- A power's embargo year this Winterphase: its marker's space, one on from last year's.
local function embargo_year(ctx, power)
  return (ctx.vars.embargo_years[power] or 0) + 1
end

--- What the embargo costs a participant this year (4.258): the track's cost for its year;
--- France takes 15 off when another nation takes part (so France may gain).
function winter.embargo_cost(ctx, power)
  local cost = ctx.data.tables.embargo_cost[power .. "/" .. embargo_year(ctx, power)]
  if power == "FR" and #winter.embargoed(ctx) > 1 then
    cost = cost - 15
  end
  return cost
end

--- The most VP `power` can buy (4.25): ten, and no more than its gold pays for.
function winter.affordable(ctx, power)
  local have = ctx:counter("gold." .. power)
  local n = 0
  for k = 1, 10 do
    if ctx.data.tables.vp_purchase[tostring(k)] <= have then
      n = k
    else
      break
    end
  end
  return n
end

winter.states = {}

-- 4.21 Tax Collection: each player, in turn, his provinces' gold.
local tax = {}
winter.states.tax = tax

function tax.prompt(ctx)
  local power = ctx.vars.pcs[ctx.locals.n]
  return {
    seat = power,
    text = string.format("%d Winterphase, 4.21 Tax Collection: %s's taxes (the gold of its provinces on the map)", ctx.vars.year, name(ctx, power)),
    actions = {
      { name = "tax", min = 0, max = 1000, label = "Taxes" },
      { name = "no_tax", label = "No taxes: the capital has been occupied two turns running (4.213)" },
    },
  }
end

local function next_tax(ctx, power, taxes)
  local embargo = 0
  if ctx.vars.embargo[power] then
    embargo = winter.embargo_cost(ctx, power)
  end
  local now = gold(ctx, power, taxes - embargo)
  local cost = embargo ~= 0 and string.format(", less %d for the Continental System", embargo) or ""
  ctx:log(string.format("%s collects %d gold in taxes%s: %d gold.", name(ctx, power), taxes, cost, now))
  if ctx.locals.n < #ctx.vars.pcs then
    ctx.locals.n = ctx.locals.n + 1
  else
    ctx:replace("expenses")
  end
end

function tax.tax(ctx, n)
  next_tax(ctx, ctx.vars.pcs[ctx.locals.n], n)
end

function tax.no_tax(ctx)
  next_tax(ctx, ctx.vars.pcs[ctx.locals.n], 0)
end

-- 4.22 Expenses, then 4.23 VP Collection.
local expenses = {}
winter.states.expenses = expenses

function expenses.run(ctx)
  for _, power in ipairs(ctx.vars.pcs) do
    local allies = 0
    for _, ally in pairs(ctx.vars.npc_ally) do
      if ally == power then
        allies = allies + 1
      end
    end
    local at_war = powers.in_war(ctx, power)
    local due = 10 * allies + (at_war and 5 or 0)
    if due > 0 then
      local now = gold(ctx, power, -due)
      ctx:log(string.format("%s pays %d gold (%d NPC all%s%s): %d gold%s.", name(ctx, power), due, allies,
        allies == 1 and "y" or "ies", at_war and ", at war" or "", now, now < 0 and ", a deficit" or ""))
    end
  end
  local parties = {}
  for _, power in ipairs(ctx.vars.pcs) do
    if ctx.vars.peace_party[power] then
      parties[#parties + 1] = power
    end
  end
  if #parties > 0 then
    ctx:replace("peace_party", { powers = parties, n = 1 })
    return
  end
  ctx:replace("vp_collection", { n = 1 })
end

-- 4.74 A Peace Party unresolved in the Winterphase costs 2d10 gold and 5 VP, unless a
-- temporary resolution (4.742) spares its nation this year. (Read after the Expense Step.)
local peace_party = {}
winter.states.peace_party = peace_party

winter.PEACE_PARTY_VP = 5

function peace_party.prompt(ctx)
  local power = ctx.locals.powers[ctx.locals.n]
  return {
    seat = power,
    text = string.format("%d Winterphase, 4.74 Peace Party in %s: has it, since the event, taken an enemy capital, beaten a field army of 5 Corps or more, or a fleet of 2 fleets or more (4.742)?",
      ctx.vars.year, name(ctx, power)),
    actions = {
      { name = "resolved", label = "Yes: no penalty this year" },
      { name = "penalty", label = "No: pay 2d10 gold and 5 VP" },
    },
  }
end

local function next_party(ctx)
  if ctx.locals.n < #ctx.locals.powers then
    ctx.locals.n = ctx.locals.n + 1
  else
    ctx:replace("vp_collection", { n = 1 })
  end
end

function peace_party.resolved(ctx)
  ctx:log(string.format("%s's Peace Party is held off this year (4.742).", name(ctx, ctx.locals.powers[ctx.locals.n])))
  next_party(ctx)
end

function peace_party.penalty(ctx)
  local power = ctx.locals.powers[ctx.locals.n]
  local a = ctx:roll(10, name(ctx, power) .. "'s Peace Party, first die")
  local b = ctx:roll(10, name(ctx, power) .. "'s Peace Party, second die")
  local now = gold(ctx, power, -(a + b))
  local vp = ctx:add_counter("vp." .. power, -winter.PEACE_PARTY_VP)
  ctx:log(string.format("%s's Peace Party costs %d gold (%d + %d) and %d VP: %d gold, %d VP (4.74).", name(ctx, power), a + b, a, b, winter.PEACE_PARTY_VP, now, vp))
  next_party(ctx)
end

local vp_collection = {}
winter.states.vp_collection = vp_collection

function vp_collection.prompt(ctx)
  local power = ctx.vars.pcs[ctx.locals.n]
  return {
    seat = power,
    text = string.format("%d Winterphase, 4.23 VP Collection: %s's VP (the VP of its provinces on the map)", ctx.vars.year, name(ctx, power)),
    actions = { { name = "vp", min = 0, max = 1000, label = "VP collected" } },
  }
end

function vp_collection.vp(ctx, n)
  local power = ctx.vars.pcs[ctx.locals.n]
  local now = ctx:add_counter("vp." .. power, n)
  ctx:log(string.format("%s collects %d VP: %d VP.", name(ctx, power), n, now))
  if ctx.locals.n < #ctx.vars.pcs then
    ctx.locals.n = ctx.locals.n + 1
  elseif #winter.embargoed(ctx) > 0 then
    ctx:replace("continental")
  else
    ctx:replace("vp_purchase")
  end
end

-- 4.24 The Continental System, at the end of the VP Collection Step: each participant's
-- toll on Britain by its year on the track, one VP a minor port of trade its blockaders
-- hold, and each participant's marker one year on.
local continental = {}
winter.states.continental = continental

function continental.prompt(ctx)
  return {
    seat = "FR",
    text = string.format("%d Winterphase, 4.24 Continental System: the minor powers' ports of trade its blockaders hold (from the map)", ctx.vars.year),
    actions = { { name = "ports", min = 0, max = 100, label = "Minor ports of trade closed" } },
  }
end

function continental.ports(ctx, ports)
  local loss = ports
  for _, power in ipairs(winter.embargoed(ctx)) do
    local year = embargo_year(ctx, power)
    local vp = ctx.data.tables.embargo_vp[power .. "/" .. year]
    loss = loss + vp
    ctx.vars.embargo_years[power] = year
    ctx:log(string.format("%s's year %d in the Continental System costs Britain %d VP.", name(ctx, power), year, vp))
  end
  if ctx.vars.npc.GB == nil then
    local now = ctx:add_counter("vp.GB", -loss)
    ctx:log(string.format("Britain loses %d VP (%d for minor ports of trade): %d VP.", loss, ports, now))
  end
  ctx:replace("vp_purchase")
end

-- 4.25 VP Purchase: each player in secret, then each in turn pays and adds his VP.
local vp_purchase = {}
winter.states.vp_purchase = vp_purchase

function vp_purchase.prompt(ctx)
  local asks = {}
  for _, power in ipairs(ctx.vars.pcs) do
    asks[#asks + 1] = { seat = power, actions = { { name = "buy", min = 0, max = winter.affordable(ctx, power), label = "VP to buy" } } }
  end
  return { text = string.format("%d Winterphase, 4.25 VP Purchase: how many VP each player buys, in secret", ctx.vars.year), asks = asks }
end

function vp_purchase.reveal(ctx, choices)
  for _, power in ipairs(ctx.vars.pcs) do
    local n = choices[power].arg
    if n > 0 then
      local cost = ctx.data.tables.vp_purchase[tostring(n)]
      gold(ctx, power, -cost)
      local vp = ctx:add_counter("vp." .. power, n)
      ctx:log(string.format("%s buys %d VP for %d gold: %d VP.", name(ctx, power), n, cost, vp))
    else
      ctx:log(string.format("%s buys no VP.", name(ctx, power)))
    end
  end
  ctx:replace("diplomacy")
end

--- A step played at the table: the first player says when it is over (`label`), and
--- `after(ctx)` goes on. `what` is the step's words after the year.
local function at_table(what, label, after)
  return {
    prompt = function(ctx)
      return {
        seat = ctx.vars.pcs[1],
        text = string.format("%d Winterphase, %s", ctx.vars.year, what),
        actions = { { name = "done", label = label } },
      }
    end,
    done = after,
  }
end

-- 4.3 The Diplomacy Phase: five minutes of talks, at the table.
winter.states.diplomacy = at_table("4.3 Diplomacy Phase: five minutes of talks, in private if the players wish",
  "The talks are over", function(ctx)
    ctx:replace("npc_alliance")
  end)

-- 4.4 The NPC Alliance Phase: the Player Countries' chits drawn one by one; each may roll
-- a d10 on the NPC Alliance Table to gain an NPC no one has, or to break another player's
-- alliance with one (two more than its number, a 10 always).
local npc_alliance = {}
winter.states.npc_alliance = npc_alliance

function npc_alliance.on_enter(ctx)
  local order = {}
  for _, power in ipairs(ctx.vars.pcs) do
    ctx:move_card("chit." .. power, "cup")
  end
  ctx:shuffle("cup")
  for _, chit in ipairs(ctx:zone("cup")) do
    order[#order + 1] = chit:match("^chit%.(.+)$")
  end
  for _, chit in ipairs(ctx:zone("cup")) do
    ctx:move_card(chit, "chits", "bottom")
  end
  ctx.locals.order, ctx.locals.n = order, 1
  ctx:log(string.format("%d Winterphase, 4.4 NPC Alliance Phase: the chits come out %s.", ctx.vars.year,
    table.concat((function()
      local names = {}
      for i, p in ipairs(order) do
        names[i] = name(ctx, p)
      end
      return names
    end)(), ", ")))
end

--- The NPC Alliance rolls open to `power`, as actions named `action`, each label begun by
--- `how` ("Roll", "Pay 10 gold and roll"): for each NPC it is not allied with, to gain it or
--- to break another player's alliance with it.
function winter.npc_rolls(ctx, power, action, how)
  local actions = {}
  for _, npc in ipairs(ctx.vars.powers) do
    if ctx.vars.npc[npc] and ctx.vars.npc_ally[npc] ~= power and not powers.hostile(ctx, power, npc) then
      local holder = ctx.vars.npc_ally[npc]
      local label = holder and string.format("%s to break %s's alliance with %s", how, name(ctx, holder), name(ctx, npc))
        or string.format("%s for an alliance with %s", how, name(ctx, npc))
      actions[#actions + 1] = { name = action, arg = npc, label = label }
    end
  end
  return actions
end

function npc_alliance.prompt(ctx)
  local power = ctx.locals.order[ctx.locals.n]
  local actions = winter.npc_rolls(ctx, power, "roll", "Roll")
  actions[#actions + 1] = { name = "pass", label = "No roll" }
  return {
    seat = power,
    text = string.format("%d Winterphase, 4.4 NPC Alliance Phase: %s may roll on the NPC Alliance Table", ctx.vars.year, name(ctx, power)),
    actions = actions,
  }
end

--- The NPC Alliance Table's roll for `power` on `npc`: whether it gains (or breaks) it.
function winter.alliance_roll(ctx, power, npc, roll)
  local need = ctx.data.tables.npc_alliance[power .. "/" .. npc]
  local holder = ctx.vars.npc_ally[npc]
  if holder then
    need = math.min(need + 2, 10)
  end
  return roll >= need, need, holder
end

function winter.roll_for(ctx, power, npc)
  local roll = ctx:roll(10, string.format("%s's NPC Alliance roll on %s", name(ctx, power), name(ctx, npc)))
  local ok, need, holder = winter.alliance_roll(ctx, power, npc, roll)
  if ok and holder then
    powers.drop_npc(ctx, holder, npc)
    ctx:log(string.format("%s breaks %s's alliance with %s (%d, %d needed): %s is %s (5.23).", name(ctx, power), name(ctx, holder), name(ctx, npc), roll, need, name(ctx, npc), ctx.vars.npc[npc]))
  elseif ok then
    powers.gain_npc(ctx, power, npc)
    ctx:log(string.format("%s gains %s as its ally (%d, %d needed).", name(ctx, power), name(ctx, npc), roll, need))
  else
    ctx:log(string.format("%s's roll on %s fails (%d, %d needed).", name(ctx, power), name(ctx, npc), roll, need))
  end
end

local function next_chit(ctx)
  if ctx.locals.n < #ctx.locals.order then
    ctx.locals.n = ctx.locals.n + 1
  else
    ctx:replace("npc_builds")
  end
end

function npc_alliance.roll(ctx, npc)
  winter.roll_for(ctx, ctx.locals.order[ctx.locals.n], npc)
  next_chit(ctx)
end

function npc_alliance.pass(ctx)
  next_chit(ctx)
end

-- 4.41 NPC builds and desertions, at the table; then Spring.
winter.states.npc_builds = at_table("4.41 NPC builds and Minor Power desertions (at the table): then Spring",
  "Done: Spring begins", function(ctx)
    ctx.vars.season = "Spring"
    ctx:set_turn(ctx:turn() + 1)
    ctx:replace("turn_start")
  end)

return winter
