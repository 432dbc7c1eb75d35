-- Napoleonic Wars Campaign: the bank (sections 16, 18, 19.9, 20). Resource points (RP) and
-- action points (AP) are a turn's and are lost at its end; cash is banked. Trade brings
-- each nation its dice of RP (16.2), Spain's gold its 6d6 each Fall (16.3); 1 RP buys 1 AP
-- or $10 (16.5); a raid takes its share of a province's RP (19.9); a submitted nation pays
-- its reparations each turn of its peace (20.1); a captured capital gives its cash to the
-- captor (16.7). Each nation's bank is its private state
-- (`ctx.private[nation].bank`): only it and the umpire read it.

local bank = {}

bank.AP_PER_RP = 1
bank.CASH_PER_RP = 10
bank.GOLD_DICE = 6

--- Rolls `n` d6 for `seat`, each told only to it (and the umpire); returns the total.
function bank.dice(ctx, n, reason, seat)
  local total = 0
  for _ = 1, n do
    total = total + ctx:roll(6, reason, seat)
  end
  return total
end

--- A nation's trade income in RP: its trade dice (16.2), each roll told only to it.
function bank.trade(ctx, seat)
  local n = ctx.data.tables.trade_dice[seat]
  return bank.dice(ctx, n, ctx.data.seats[seat].name .. "'s trade", seat)
end

--- A nation's bank: {rp, ap, cash}.
function bank.of(ctx, seat)
  local own = ctx.private[seat]
  own.bank = own.bank or { rp = 0, ap = 0, cash = 0 }
  return own.bank
end

--- Adds `n` (may be negative, never below zero) to a nation's `what` ("rp", "ap" or
--- "cash"); returns the new amount.
function bank.add(ctx, seat, what, n)
  local b = bank.of(ctx, seat)
  b[what] = math.max(0, b[what] + n)
  return b[what]
end

--- The turn's end: unspent RP and AP are lost (16.6, 17.2).
function bank.forfeit(ctx, seat)
  local b = bank.of(ctx, seat)
  b.rp, b.ap = 0, 0
end

--- The RP a raid takes (19.9): the province's RP shared among its cities, rounded down for
--- a city that is not a Victory City and up for one that is.
function bank.raid_loss(province_rp, cities, victory_city)
  if victory_city then
    return (province_rp + cities - 1) // cities
  end
  return province_rp // cities
end

--- A captured capital (16.7, L240): the whole of `seat`'s cash, banked at its capital, goes
--- to `captor`; RP and AP are never banked (16.6, L238) and stay. Returns the sum.
function bank.seize(ctx, seat, captor)
  local cash = bank.of(ctx, seat).cash
  bank.add(ctx, seat, "cash", -cash)
  bank.add(ctx, captor, "cash", cash)
  return cash
end

--- Converts `rp` of a nation's RP into AP or cash (16.5); returns what it bought, or nil
--- and why not.
function bank.convert(ctx, seat, rp, into)
  local have = bank.of(ctx, seat).rp
  if rp < 1 or rp > have then
    return nil, string.format("%s has %d RP", ctx.data.seats[seat].name, have)
  end
  bank.add(ctx, seat, "rp", -rp)
  if into == "ap" then
    return bank.add(ctx, seat, "ap", rp * bank.AP_PER_RP)
  end
  return bank.add(ctx, seat, "cash", rp * bank.CASH_PER_RP)
end

return bank
