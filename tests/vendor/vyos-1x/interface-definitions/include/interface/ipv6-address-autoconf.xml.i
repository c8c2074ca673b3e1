<!-- include start from interface/ipv6-address-autoconf.xml.i -->
<leafNode name="autoconf">
  <properties>
    <help>Enable acquisition of IPv6 address using stateless autoconfig (SLAAC)</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
