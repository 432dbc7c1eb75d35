-- La Guerre de l'Empereur: the War Declaration Step (5.3-5.33) with its cancel window
-- (4.62). A Player Country declares war on a power and on every member of that power's
-- alliance; any other player may try, once, to cancel the declaration (5 gold, two dice
-- read as tens and ones: 95 or more); else the declarer pays 10 VP and the wars begin. An
-- NPC attacked without an ally is bid for in secret, in gold, by the other players (a tie
-- goes to an open auction among the tied); if nobody bids, the other players roll for who
-- runs its units (5.33), and it has its own turn.

local bid = include("rules/bid.lua")

local war = {}

war.CANCEL_COST, war.CANCEL_AT, war.DECLARE_VP = 5, 95, 10

local function name(ctx, seat)
  return ctx.data.seats[seat].name
end

local function pair(a, b)
  return a < b and (a .. "/" .. b) or (b .. "/" .. a)
end

--- Whether `a` and `b` are at war.
function war.at_war(ctx, a, b)
  return ctx.vars.wars[pair(a, b)] == true
end

--- The powers a declaration on `target` is made on: `target` and every member of its
--- alliance (its PC ally and that ally's other NPC allies, or its own NPC allies).
function war.targets(ctx, target)
  local head = ctx.vars.npc_ally[target] or target
  local list = { head }
  for npc, ally in pairs(ctx.vars.npc_ally) do
    if ally == head then
      list[#list + 1] = npc
    end
  end
  table.sort(list, function(a, b) return a < b end)
  return list
end

--- The two dice of a cancellation read as a number (2.42): tens, then ones, a 0 for ten.
function war.percent(tens, ones)
  local n = (tens % 10) * 10 + ones % 10
  return n == 0 and 100 or n
end

--- The powers `power` may declare war on now: not itself, not its NPC allies, not a power
--- it is at war with, not one whose declaration was cancelled this Season (4.623).
function war.declarable(ctx, power)
  local list = {}
  for _, target in ipairs(ctx.vars.powers) do
    local ok = target ~= power and ctx.vars.npc_ally[target] ~= power
      and not war.at_war(ctx, power, target)
      and ctx.vars.cancelled[power .. ">" .. target] ~= ctx:turn()
    if ok then
      list[#list + 1] = target
    end
  end
  return list
end

war.states = {}

-- The cancel window: each other Player Country in turn may try; one try in all.
local cancel = {}
war.states.war_cancel = cancel

-- The Player Countries but the declarer, in the powers' order: those who may try to cancel
-- the declaration, bid for an attacked NPC or roll to run it.
local function others(ctx, l)
  local list = {}
  for _, power in ipairs(ctx.vars.pcs) do
    if power ~= l.declarer then
      list[#list + 1] = power
    end
  end
  return list
end

function cancel.prompt(ctx)
  local l = ctx.locals
  local power = others(ctx, l)[l.n]
  local actions = { { name = "pass", label = "Let it stand" } }
  if ctx:counter("gold." .. power) >= war.CANCEL_COST then
    table.insert(actions, 1, { name = "cancel", label = "Pay 5 gold and roll to cancel it (95 or more)" })
  end
  return {
    seat = power,
    text = string.format("4.62 %s declares war on %s: may %s try to cancel it?", name(ctx, l.declarer), l.words, name(ctx, power)),
    actions = actions,
  }
end

local function declared(ctx)
  local l = ctx.locals
  ctx:add_counter("vp." .. l.declarer, -war.DECLARE_VP)
  for _, target in ipairs(l.targets) do
    ctx.vars.wars[pair(l.declarer, target)] = true
    ctx.vars.at_war[l.declarer] = (ctx.vars.at_war[l.declarer] or 0) + 1
    ctx.vars.at_war[target] = (ctx.vars.at_war[target] or 0) + 1
  end
  ctx:log(string.format("%s declares war on %s and pays %d VP (5.31).", name(ctx, l.declarer), l.words, war.DECLARE_VP))
  for _, target in ipairs(l.targets) do
    if ctx.vars.npc[target] == "inactive" then
      ctx:replace("npc_auction", { declarer = l.declarer, npc = target })
      return
    end
  end
  ctx:pop({ war = true })
end

function cancel.cancel(ctx)
  local l = ctx.locals
  local power = others(ctx, l)[l.n]
  ctx:add_counter("gold." .. power, -war.CANCEL_COST)
  local tens = ctx:roll(10, name(ctx, power) .. "'s cancellation, tens")
  local ones = ctx:roll(10, name(ctx, power) .. "'s cancellation, ones")
  local n = war.percent(tens, ones)
  if n >= war.CANCEL_AT then
    ctx.vars.cancelled[l.declarer .. ">" .. l.target] = ctx:turn()
    ctx:log(string.format("%s cancels %s's declaration of war (%d): it may be made again next Season (4.623).", name(ctx, power), name(ctx, l.declarer), n))
    ctx:pop({ war = false })
    return
  end
  ctx:log(string.format("%s fails to cancel it (%d).", name(ctx, power), n))
  declared(ctx)
end

function cancel.pass(ctx)
  local l = ctx.locals
  if l.n < #others(ctx, l) then
    l.n = l.n + 1
    return
  end
  declared(ctx)
end

--- Opens the declaration of war by `declarer` on `target` (and its alliance).
function war.declare(ctx, declarer, target)
  local targets = war.targets(ctx, target)
  local names = {}
  for i, t in ipairs(targets) do
    names[i] = name(ctx, t)
  end
  ctx:call("war_cancel", { declarer = declarer, target = target, targets = targets, words = table.concat(names, " and "), n = 1 })
end

-- 5.32: the other players bid gold for the attacked NPC, in secret.
local auction = {}
war.states.npc_auction = auction

function auction.prompt(ctx)
  local l = ctx.locals
  local asks = {}
  for _, power in ipairs(others(ctx, l)) do
    asks[#asks + 1] = { seat = power, actions = { { name = "bid", min = 0, max = math.max(0, ctx:counter("gold." .. power)), label = "Gold bid for the alliance" } } }
  end
  return { text = string.format("5.32 Bids in gold, in secret, for an alliance with %s", name(ctx, l.npc)), asks = asks }
end

local function allied(ctx, power, npc, paid)
  ctx:add_counter("gold." .. power, -paid)
  ctx.vars.npc_ally[npc] = power
  ctx.vars.npc[npc] = "allied"
  ctx:log(string.format("%s pays %d gold and allies with %s; it must declare war on its attacker in its next War Declaration Step (5.32).", name(ctx, power), paid, name(ctx, npc)))
end

local function caretaker(ctx, l)
  -- 5.33: every player but the attacker rolls; the highest runs the NPC (ties roll again).
  local winner = bid.by_dice(ctx, others(ctx, l), 10, function(power)
    return name(ctx, power) .. "'s caretaker roll for " .. name(ctx, l.npc)
  end)[1]
  ctx.vars.npc[l.npc] = "controlled"
  ctx.vars.controller[l.npc] = winner
  ctx:move_card("chit." .. l.npc, "cup")
  ctx:log(string.format("Nobody bids for %s: %s runs its units, and it has a turn of its own (5.33).", name(ctx, l.npc), winner and name(ctx, winner) or "nobody"))
  ctx:pop({ war = true })
end

function auction.reveal(ctx, choices)
  local l = ctx.locals
  local best, top = 0, {}
  for _, power in ipairs(others(ctx, l)) do
    local b = choices[power].arg
    if b > best then
      best, top = b, { power }
    elseif b == best and b > 0 then
      top[#top + 1] = power
    end
  end
  if best == 0 then
    caretaker(ctx, l)
  elseif #top == 1 then
    allied(ctx, top[1], l.npc, best)
    ctx:pop({ war = true })
  else
    ctx:replace("open_auction", { declarer = l.declarer, npc = l.npc, high = best, leader = top[1], bidders = top, n = 2 })
  end
end

-- The open auction among the tied (5.32): each in turn raises the high bid or drops out;
-- the last one in pays his bid.
local open = {}
war.states.open_auction = open

function open.prompt(ctx)
  local l = ctx.locals
  local power = l.bidders[l.n]
  local actions = { { name = "drop", label = "Drop out" } }
  if ctx:counter("gold." .. power) > l.high then
    table.insert(actions, 1, { name = "raise", min = l.high + 1, max = ctx:counter("gold." .. power), label = "Raise the bid" })
  end
  return {
    seat = power,
    text = string.format("5.32 Open auction for %s: %s bids %d", name(ctx, l.npc), name(ctx, l.leader), l.high),
    actions = actions,
  }
end

-- (The turn never comes back to the leader while another bidder is in: to stay in, a
-- bidder must raise and lead.)
function open.raise(ctx, bid)
  local l = ctx.locals
  l.high, l.leader = bid, l.bidders[l.n]
  l.n = l.n % #l.bidders + 1
end

function open.drop(ctx)
  local l = ctx.locals
  table.remove(l.bidders, l.n)
  if l.n > #l.bidders then
    l.n = 1
  end
  if #l.bidders == 1 then
    allied(ctx, l.bidders[1], l.npc, l.high)
    ctx:pop({ war = true })
  end
end

return war
